@_spi(PrivacyFilter) import DicteeCore
import Foundation

/// A child of the family, as the privacy filter needs it: the state's id and the first name.
///
/// A title token equal to the first name (case and accents folded, look-alike letters and invisible
/// characters read as `Normalizer.guardTokenLists` reads them for disqualifiers; whole tokens only,
/// a hyphenated name being one token) makes the moment that child's (`Classification.children`),
/// except in a friend slot (README, "The privacy filter").
public struct FamilyMember: Hashable, Sendable {
    /// The child's id in the state (`children.id`).
    public var id: Int64
    /// The first name as the parent registered it (`dictee child add`), e.g. `Inès`.
    public var firstName: String
    /// The child's grade this school year (`dictee child add --grade`), or `nil`: a title naming
    /// a grade and no child ("Classe de neige CM1", "Sortie scolaire CP") is the moment of the
    /// children in that grade.
    public var grade: Grade?

    public init(id: Int64, firstName: String, grade: Grade? = nil) {
        self.id = id
        self.firstName = firstName
        self.grade = grade
    }

    /// The family as the filter learns it from the state's children: ids, first names and grades
    /// (a child not stored yet, without an id, is left out).
    public static func family(of children: [Child]) -> [FamilyMember] {
        children.compactMap { c in c.id.map { FamilyMember(id: $0, firstName: c.firstName, grade: c.grade) } }
    }
}

/// What the privacy filter decided about one title (the `dictee classify` contract).
public struct Classification: Hashable, Sendable {
    public enum Decision: String, Hashable, Sendable {
        /// A whitelist form matched and no disqualifier: the event may become a dictation.
        case moment
        /// A disqualifier matched the title, the location or the description (rule `D..`), or a
        /// parents' rule matched the title (rule `P..`: the parents' event, not a children's moment).
        case disqualified
        /// Nothing matched, or a held word did (`Whitelists/held.txt`): the event keeps no name and
        /// waits for the parent.
        case unlabeled
    }

    public var decision: Decision
    /// The rendered canonical phrase ("l'anniversaire d'Anaïs"), for moments only.
    public var phrase: String?
    /// The captured first name or family word, for moments with a name only.
    public var firstName: String?
    /// The rule id: a whitelist form (`M012`), a disqualifier (`D07`) or a parents' rule (`P01`);
    /// never the matched text.
    public var rule: String?
    /// The matched form (moments only), for the grammar of the phrase.
    public var form: Whitelist.Form?
    /// The ids of the family's children the title names, sorted (moments only): "Judo Noah" is
    /// Noah's moment only. Empty: the whole family's. A child's name in the friend slot ("Anniv de
    /// Noah") does not count: that moment stays the family's, with the name in its phrase.
    public var children: [Int64]

    static let unlabeled = Classification(decision: .unlabeled)

    init(decision: Decision, phrase: String? = nil, firstName: String? = nil, rule: String? = nil,
         form: Whitelist.Form? = nil, children: [Int64] = []) {
        self.decision = decision
        self.phrase = phrase
        self.firstName = firstName
        self.rule = rule
        self.form = form
        self.children = children.sorted()
    }
}

/// The only producer of `Moment`: matches calendar text against the closed whitelist.
///
/// Rules (README "The privacy filter"; Docs/domain.md §5 and §6):
/// 1. Text is normalised by `Normalizer` (NFC, folding, times removed, punctuation separates).
/// 2. Disqualifiers are checked first, on the title, then the location, then the description, and
///    win over any form; within one text the earliest match wins, then the longest.
/// 3. Parents' rules (`Whitelists/parents.txt`, `P01`...) are checked next, on the title only, matched
///    as disqualifiers (hyphens inside a word aside): a meeting, a parents' outing, a custody
///    hand-over is `.disqualified` with its `P..` rule, never a moment.
/// 4. Forms match whole tokens (multi-token forms consecutive tokens; a hyphen inside a word does
///    not count, `weekend` is `week-end`): "ski" never matches "Kandinsky". The longest form wins;
///    on a tie, the `tie` column decides (a `generic` form loses, an `event` form wins), then the
///    earliest in the title.
/// 5. Names are captured for forms with a name slot only, in the slot: the token right after
///    `de`/`d'` following the form, or directly after the form (slot `de`), or after `chez` (slot
///    `chez`). A child of the family there (in any case, accents, look-alike letters or invisible
///    characters) is written as the family registered the name; otherwise a capitalised given name
///    (letters, accents, at most one inner hyphen, 2 to 20 letters), a lower-case name of
///    `Whitelists/given-names.txt` (written as the list writes it: "anniv zoé" gives Zoé), or after
///    `chez` the lower-case family words mamie, papi, mamy, papy, tata, tonton, marraine, parrain.
///    Every captured name passes `acceptsName`.
/// 6. A child's first name anywhere else in the title makes the moment that child's
///    (`Classification.children`); the name never reaches the phrase. A child named in the slot
///    ("Anniv de Noah": his own birthday) restricts nothing: the moment stays the family's, and the
///    cards never offer Noah a moment whose slot holds his own name, so his sister may get it.
///    A birthday (slot `de`) whose slot holds no friend and nobody else: a child named anywhere is
///    the one celebrated ("Anniv 8 ans Noah": "l'anniversaire de Noah", the family's), unless
///    named right after "avec" ("Anniv Émile avec Léa": Léa is a guest, her moment); children
///    listed together ("Anniv Noah et Inès") share it ("l'anniversaire", the family's).
/// 7. With no child of the family named, an owner word of `parents.txt` (papa, maman) standing as
///    the owner (not after a link word, not in a birthday's slot) makes the parents' event, rule
///    `P..`, form or not ("Gym maman", "Yoga maman").
/// 8. A held word (`Whitelists/held.txt`: a birth, a death, an illness, a placement, a cancelled
///    activity; with the `mort`, `maladie`, `medical` and `justice` words of `registers.txt`) in the
///    title or the location, matched as disqualifiers are, or a word of the title that a held or
///    disqualifier word misspelt would give (`misspelt`), keeps the event unlabeled whatever form
///    matched: the parent decides ("Sortie maternité", "Piscine annulée", "Foot puis dentise").
/// 9. Anything else is unlabeled: no name is kept at all.
public struct PrivacyFilter: Sendable {
    public let whitelist: Whitelist
    /// The family's children, whose names decide whose a moment is.
    public let family: [FamilyMember]
    /// Tells the common nouns and adjectives a name slot must not keep (`acceptsCapturedName`).
    public let commonWords: (any CommonWordLexicon)?
    /// Per child: the name folded (`Normalizer.fold`) and its look-alike skeleton (`guardFold`).
    private let familyKeys: [(member: FamilyMember, plain: String, skeleton: String)]
    private let formsByFirstToken: [String: [Whitelist.Form]]
    /// Every accepted spelling of the first word of a disqualifier's form (plural, singular) -> forms.
    private let disqualifiersByFirstWord: [String: [RuleForm]]
    /// The same for the parents' rules (hyphens inside words removed as well).
    private let parentsByFirstWord: [String: [RuleForm]]
    /// The same for the held words (`held.txt`).
    private let heldByFirstWord: [String: [RuleForm]]
    /// The one-word forms of the disqualifiers, then of the held words, of `typoLength` letters or
    /// more (folded, letters only), each with its rule id: what a misspelt word is compared with
    /// (`misspelt`).
    private let typoTargets: [(letters: [Character], rule: String)]
    /// Every accepted spelling of an owner word (`parents.txt`: papa, maman) -> its rule.
    private let ownerBySpelling: [String: Whitelist.Disqualifier]

    /// The words after which a parent word is not the owner but a companion or someone else
    /// ("avec papa", "chez maman", "la maman de Léa"), folded.
    static let ownerLinkWords: Set<String> = ofWords.union(possessives).union([
        "chez", "avec", "et", "pour", "a", "au", "aux", "sans", "par", "le", "la", "les", "l'", "un", "une",
    ])

    /// The link words of "de": a parent after them is the owner except in a birthday.
    static let ofWords: Set<String> = ["de", "d'", "des", "du"]

    /// Family words accepted after `chez` in lower case.
    public static let familyWords: Set<String> = FamilyWords.all

    /// - Parameters:
    ///   - whitelist: the rules (the bundled `Whitelists/` files by default).
    ///   - family: the family's children (ids and first names from the state); empty, every moment
    ///     is the whole family's.
    ///   - commonWords: the lexicon that tells a common noun or adjective from a first name
    ///     (`French.Lexicon`); `nil` (no Lexique table here): a capitalised word in a name slot is
    ///     kept only when `given-names.txt` lists it (`acceptsCapturedName`).
    public init(whitelist: Whitelist = .bundled, family: [FamilyMember] = [], commonWords: (any CommonWordLexicon)? = nil) {
        self.whitelist = whitelist
        self.family = family
        self.commonWords = commonWords
        familyKeys = family.map { ($0, Normalizer.fold($0.firstName), Normalizer.guardFold($0.firstName)) }
        formsByFirstToken = Dictionary(grouping: whitelist.forms, by: { Self.formKey($0.tokens[0]) })
        disqualifiersByFirstWord = Self.index(whitelist.disqualifiers, hyphenFree: false)
        parentsByFirstWord = Self.index(whitelist.parentRules, hyphenFree: true)
        heldByFirstWord = Self.index(whitelist.heldWords, hyphenFree: false)
        typoTargets = (whitelist.disqualifiers + whitelist.heldWords).flatMap { rule in
            rule.variants.compactMap { variant in
                variant.count == 1 && variant[0].count >= Self.typoLength && variant[0].allSatisfy(\.isLetter)
                    ? (Array(variant[0]), rule.id) : nil
            }
        }
        var owners: [String: Whitelist.Disqualifier] = [:]
        for w in whitelist.ownerWords {
            for variant in w.variants {
                for spelling in Self.spellings(variant[0]) where owners[spelling] == nil { owners[spelling] = w }
            }
        }
        ownerBySpelling = owners
    }

    /// One form of a rule (a row of `disqualifiers.txt` or `parents.txt` carries one or more), with
    /// the accepted spellings of each of its words.
    private struct RuleForm: Sendable {
        let rule: Whitelist.Disqualifier
        /// The form's words, folded as the row writes them.
        let tokens: [String]
        /// Per word, its accepted spellings (`spellings`).
        let spellings: [Set<String>]
    }

    private static func index(_ rules: [Whitelist.Disqualifier], hyphenFree: Bool) -> [String: [RuleForm]] {
        var byFirst: [String: [RuleForm]] = [:]
        for d in rules {
            for variant in d.variants {
                let forms = variant.map { word in
                    hyphenFree ? spellings(word).union(spellings(formKey(word))) : spellings(word)
                }
                let form = RuleForm(rule: d, tokens: variant, spellings: forms)
                for spelling in forms[0] { byFirst[spelling, default: []].append(form) }
            }
        }
        return byFirst
    }

    /// A folded token as forms compare it: hyphens inside a word do not count (`weekend`, `week-end`).
    static func formKey(_ folded: String) -> String {
        folded.contains("-") ? folded.replacingOccurrences(of: "-", with: "") : folded
    }

    /// The most of a title the filter reads, in Unicode scalars (256). A title is a few words (the
    /// longest of `Fixtures/privacy/titles.tsv` has 63 scalars; a label may have 60): a longer one
    /// is not a title, and reading megabytes of it cost seconds per megabyte (README, "Limits").
    public static let titleBound = 256
    /// The most of a location or a description the filter reads, in Unicode scalars (4,096): an
    /// address, or a video-call invitation's text (1 to 3 kB).
    public static let textBound = 4096

    /// `text`, or its first `bound` Unicode scalars and `true` when it is longer. Linear in
    /// `bound`, whatever the length of `text`.
    static func bounded(_ text: String, _ bound: Int) -> (text: String, cut: Bool) {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: bound, limitedBy: scalars.endIndex),
              end != scalars.endIndex
        else { return (text, false) }
        return (String(scalars[..<end]), true)
    }

    /// Classifies one event's texts.
    ///
    /// Each text is read up to its bound (`titleBound`, `textBound` Unicode scalars). A text
    /// longer than its bound is searched for disqualifiers (and a title for parents' rules) in
    /// that prefix, and otherwise makes the event `unlabeled`, never a moment: what lies past the
    /// bound was not read, and could hold a disqualifier.
    /// - Parameters:
    ///   - title: the SUMMARY.
    ///   - location: the LOCATION (checked for disqualifiers only).
    ///   - description: the DESCRIPTION (checked for disqualifiers only).
    public func classify(title fullTitle: String, location fullLocation: String = "", description fullDescription: String = "")
        -> Classification
    {
        let (title, titleCut) = Self.bounded(fullTitle, Self.titleBound)
        let (location, locationCut) = Self.bounded(fullLocation, Self.textBound)
        let (description, descriptionCut) = Self.bounded(fullDescription, Self.textBound)
        for text in [title, location, description] {
            if let d = firstDisqualifier(in: text) {
                return Classification(decision: .disqualified, rule: d.id)
            }
        }
        if let p = firstParentRule(in: title) {
            return Classification(decision: .disqualified, rule: p.id)
        }
        if titleCut || locationCut || descriptionCut { return .unlabeled }
        let (titleTokens, glued) = Normalizer.tokensWithGlue(title)
        let best = bestForm(in: titleTokens)
        // The children named anywhere, as runs of tokens (a run joins tokens that only invisible
        // characters separate: `No\u{200D}ah`).
        let named = childRuns(in: titleTokens, glued: glued)
        // A parent as the owner ("Gym maman"), and no child of the family named: the parents'.
        // "+" and "&" join people as "et" does ("Fête des Lumières (Léa + maman)": maman comes along).
        // A week-end with a parent ("Week-end Noah papa", "WE enfants maman"): custody, however
        // written, whoever is named (README, parents' events).
        if best?.form.grammar.headNoun == "week-end", let parent = titleTokens.lazy.compactMap({ t in
            self.ownerBySpelling[Normalizer.guardFold(t.original)] ?? self.ownerBySpelling[t.folded]
        }).first {
            return Classification(decision: .disqualified, rule: parent.id)
        }
        if named.isEmpty, !Self.ownerDoesNotApply(titleTokens, form: best?.form) {
            let joined = title.contains("+") || title.contains("&")
                ? Normalizer.tokensWithGlue(title.replacingOccurrences(of: "+", with: " et ").replacingOccurrences(of: "&", with: " et "))
                : (tokens: titleTokens, gluedToNext: glued)
            let joinedBest = joined.tokens.count == titleTokens.count ? best : bestForm(in: joined.tokens)
            if let owner = ownerWord(in: joined.tokens, glued: joined.gluedToNext, form: joinedBest) {
                return Classification(decision: .disqualified, rule: owner.id)
            }
        }
        // A held word (a birth, a death, an illness, a placement, a cancelled activity) in the
        // title or the place, or a disqualifier or held word misspelt: the parent decides,
        // whatever form matched.
        if heldWord(in: title) != nil || heldWord(in: location) != nil || misspelt(in: title) != nil {
            return .unlabeled
        }
        guard let (form, start) = best else { return .unlabeled }
        let formRange = start..<(start + form.tokens.count)
        var name: String?
        var slotRun: ClosedRange<Int>?
        if let p = slotPosition(after: formRange.upperBound, in: titleTokens, slot: form.slot) {
            if let hit = named.filter({ $0.run.lowerBound == p }).max(by: { $0.run.count < $1.run.count }) {
                // A child of the family in the slot: written as the family registered the name.
                slotRun = hit.run
                name = acceptsName(hit.member.firstName) ? hit.member.firstName : nil
            } else if !named.contains(where: { $0.run.contains(p) }) {
                // Never a piece of a child's name that invisible characters cut.
                name = capturedName(at: p, in: titleTokens, glued: glued, slot: form.slot)
            }
        }
        // Birthdays (slot `de`): whose birthday it is when the slot holds no friend.
        var celebrated = Set<Int64>()
        if form.slot == .de {
            let outside = named.filter { !$0.run.overlaps(formRange) }
            let slotPos = slotPosition(after: formRange.upperBound, in: titleTokens, slot: form.slot)
            let slotMember = slotRun.flatMap { run in outside.first { $0.run == run }?.member }
            // Children named after "avec" come along ("ANNIV ÉMILE avec Léa", "Anniv avec Noah et
            // Inès"): guests, not the ones celebrated.
            var guests = Set<Int>()
            var previousGuest: ClosedRange<Int>?
            for hit in outside.sorted(by: { $0.run.lowerBound < $1.run.lowerBound }) {
                let before = hit.run.lowerBound > 0 ? titleTokens[hit.run.lowerBound - 1].folded : ""
                let listed = previousGuest.map { g in
                    g.upperBound + 1 == hit.run.lowerBound || (g.upperBound + 2 == hit.run.lowerBound && before == "et")
                } ?? false
                if before == "avec" || listed {
                    guests.insert(hit.run.lowerBound)
                    previousGuest = hit.run
                }
            }
            let hosts = outside.filter { !guests.contains($0.run.lowerBound) }
            if name == nil || slotMember != nil,
               slotMember != nil || !slotNamesSomeoneElse(slotPos, after: formRange.upperBound, in: titleTokens),
               !hosts.isEmpty
            {
                if Self.listedTogether(hosts, in: titleTokens), Set(hosts.map(\.member.id)).count >= 2 {
                    // "Anniv Noah et Inès", "Anniversaire de Noah et Inès": the listed children's
                    // birthday together (twins, one party): no name, the whole family's.
                    name = nil
                    celebrated = Set(hosts.map(\.member.id))
                } else if let child = slotMember ?? hosts.min(by: { $0.run.lowerBound < $1.run.lowerBound })?.member {
                    // "Anniv 8 ans Noah", "Inès anniv": the named child is the one celebrated.
                    name = acceptsName(child.firstName) ? child.firstName : nil
                    celebrated = [child.id]
                }
            }
        }
        var children = Set(named.filter { hit in
            !hit.run.overlaps(formRange) && !(slotRun.map { $0.overlaps(hit.run) } ?? false)
                && !celebrated.contains(hit.member.id)
        }.map(\.member.id))
        // No child named, but a grade ("Classe de neige CM1", "Sortie scolaire CP"): the moment
        // of the children in that grade this year (none: the family's).
        if named.isEmpty {
            // "CP-CE1" (a double-level class) names both grades.
            let grades = Set(titleTokens.flatMap { $0.folded.split(separator: "-").compactMap { Grade(rawValue: $0.uppercased()) } })
            children = Set(family.filter { $0.grade.map(grades.contains) ?? false }.map(\.id))
        }
        return Classification(
            decision: .moment, phrase: Self.render(form.phrase, slot: form.slot, name: name),
            firstName: name, rule: form.id, form: form, children: Array(children))
    }

    /// The decision for an occurrence: a `Moment`, or why not.
    public func filter(_ occurrence: Occurrence) -> FilterDecision {
        decision(
            for: occurrence,
            classification: classify(
                title: occurrence.summary, location: occurrence.location,
                description: occurrence.eventDescription))
    }

    /// The decision for an occurrence whose texts were already classified (occurrences of one
    /// series share their texts).
    public func decision(for occurrence: Occurrence, classification c: Classification) -> FilterDecision {
        switch c.decision {
        case .moment:
            let form = c.form!
            return .moment(Moment(
                phrase: c.phrase!, basePhrase: form.phrase, grammar: form.grammar,
                firstName: c.firstName, rule: form.id, eventReference: occurrence.eventReference,
                start: occurrence.start, end: occurrence.end, isRecurring: occurrence.isRecurring,
                children: c.children))
        case .disqualified:
            return .disqualified(rule: c.rule!)
        case .unlabeled:
            return .unlabeled
        }
    }

    /// Checks a parent's label for an unlabeled event and makes it a moment. The label is the
    /// parent's own words: it is normalised (`normalisedLabel`) and refused when it contains a
    /// disqualifier (matched as in titles), when it is empty, or longer than 60 code points.
    /// - Parameters:
    ///   - label: the parent's words, e.g. "la sortie au parc".
    ///   - eventReference, start, end, isRecurring: the occurrence's.
    ///   - grammar: gender, number and head noun the parent chose; `nil`: a matching whitelist
    ///     form's, else masculine singular with the last word as head noun.
    ///   - kind: the library kind (`sortie`, `fete`, `general`...), stored with the moment.
    ///   - children: the ids of the children the label is for; empty: the whole family's.
    /// - Returns: the moment (rule `label`), or why the label was refused.
    public func moment(
        label: String, eventReference: EventReference, start: EventTime, end: EventTime,
        isRecurring: Bool, grammar: PhraseGrammar? = nil, kind: String? = nil, children: [Int64] = []
    ) -> Result<Moment, LabelError> {
        let text = Self.normalisedLabel(label)
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.unicodeScalars.count <= 60 else { return .failure(.tooLong(text.unicodeScalars.count)) }
        if let rule = labelDisqualifier(label) { return .failure(.disqualified(rule: rule)) }
        // The parent's phrase: its head noun is its last word, gender and number unknown (masculine
        // singular is the neutral French default); a matching form gives the real grammar.
        let form = bestForm(in: Normalizer.tokens(text))?.form
        let grammar = grammar ?? form?.grammar
            ?? PhraseGrammar(gender: .masculine, number: .singular,
                             headNoun: Normalizer.tokens(text).last?.original ?? text)
        return .success(Moment(
            phrase: text, basePhrase: text, grammar: grammar, firstName: nil, rule: "label",
            eventReference: eventReference, start: start, end: end, isRecurring: isRecurring,
            children: children, kind: kind))
    }

    /// A moment read back from the state, checked again by the rules that made it: a whitelist
    /// form (`rule`) rendered with its captured first name (a name the filter captures, or a family
    /// word for a "chez" form), or a parent's label (`rule` "label", no first name, no
    /// disqualifier, at most 60 characters). A remote calendar that did not change since the last
    /// run is not read again, yet its moments may reach a model: they go into the audit file
    /// through this check, the same one `AuditFile.verify` applies to each line.
    /// - Returns: the moment, or `nil` when the stored values no longer pass (then it must not be
    ///   used).
    public func restored(
        phrase: String, basePhrase: String, grammar: PhraseGrammar, firstName: String?, rule: String,
        eventReference: EventReference, start: EventTime, end: EventTime, isRecurring: Bool,
        children: [Int64], kind: String?
    ) -> Moment? {
        if rule == "label" {
            guard firstName == nil, phrase.unicodeScalars.count <= 60, labelDisqualifier(phrase) == nil,
                  phrase == Self.normalisedLabel(phrase), !phrase.isEmpty
            else { return nil }
        } else {
            guard let form = whitelist.forms.first(where: { $0.id == rule }) else { return nil }
            if let firstName {
                let isFamilyWord = form.slot == .chez && Self.familyWords.contains(firstName)
                guard form.slot != .none, isFamilyWord || acceptsCapturedName(firstName) else { return nil }
            }
            guard phrase == Self.render(form.phrase, slot: form.slot, name: firstName) else { return nil }
        }
        return Moment(
            phrase: phrase, basePhrase: basePhrase, grammar: grammar, firstName: firstName, rule: rule,
            eventReference: eventReference, start: start, end: end, isRecurring: isRecurring,
            children: children, kind: kind)
    }

    /// The disqualifier (`D..` id) a parent's label contains, read as stored
    /// (`normalisedLabel`: a word that invisible characters cut is whole again) and as typed;
    /// `nil` when none. The parents' rules (`P..`) do not apply: a label is the parent's choice.
    /// The one disqualifier check of labels (`Labels.check`, `moment(label:)`).
    public func labelDisqualifier(_ label: String) -> String? {
        (firstDisqualifier(in: Self.normalisedLabel(label)) ?? firstDisqualifier(in: label))?.id
    }

    /// A parent's label as stored: NFC; white space (line breaks, tabs) made a space; invisible and
    /// control characters (zero-width characters, soft hyphens, word joiners, bidirectional marks,
    /// variation selectors, escapes) and stray combining marks *removed*, so that the word they
    /// sat in is whole again ("Ma\u{200B}mie" is "Mamie", "hôpi\u{AD}tal" is "hôpital" and
    /// disqualified); typographic apostrophes made straight, white space collapsed, trimmed.
    /// (Titles read invisible characters as separators as well: `Normalizer.tokens`.)
    public static func normalisedLabel(_ label: String) -> String {
        var joined = String.UnicodeScalarView()
        for scalar in label.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                joined.append(" ")
            } else if Normalizer.isInvisible(scalar) {
                continue
            } else {
                joined.append(scalar)
            }
        }
        let prepared = Normalizer.prepare(String(joined), invisibleSeparates: false)
        return prepared.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }

    // MARK: - Matching

    /// The first disqualifier in `text`: on each of `Normalizer.guardTokenLists` in turn, the
    /// earliest match, then the longest. A title word matches a disqualifier word when they are
    /// equal or differ by a plural (`médecins`, `hôpitaux`) or a final `s` (`urgence`).
    func firstDisqualifier(in text: String) -> Whitelist.Disqualifier? {
        guard !text.isEmpty else { return nil }
        // Calendars repeat their places and descriptions: remember the answer per text.
        let key = whitelist.disqualifiersDigest + "\u{0}" + text
        if let known = DisqualifierCache.shared.value(for: key) {
            return known.flatMap { id in whitelist.disqualifiers.first { $0.id == id } }
        }
        let found = searchDisqualifier(in: text)
        DisqualifierCache.shared.store(found?.id, for: key)
        return found
    }

    /// The first parents' rule in a title (`Whitelists/parents.txt`): matched as disqualifiers are,
    /// on `Normalizer.guardTokenLists` and also with the hyphens inside words removed.
    func firstParentRule(in title: String) -> Whitelist.Disqualifier? {
        guard !title.isEmpty, !whitelist.parentRules.isEmpty else { return nil }
        let key = "P" + whitelist.parentsDigest + "\u{0}" + title
        if let known = DisqualifierCache.shared.value(for: key) {
            return known.flatMap { id in whitelist.parentRules.first { $0.id == id } }
        }
        // Invisible characters read as nothing first: "Réu\u{200B}nion" is a réunion (P01), not a réu.
        var lists = Normalizer.guardTokenLists(title)
        lists = Array(lists[(lists.count / 2)...] + lists[..<(lists.count / 2)])
        lists += lists.map { $0.map(Self.formKey) }
        let found = search(lists, byFirstWord: parentsByFirstWord)
        DisqualifierCache.shared.store(found?.id, for: key)
        return found
    }

    /// The first held word (`Whitelists/held.txt`) in a title or a location, matched as
    /// disqualifiers are (`Normalizer.guardTokenLists`), else the first held stem some word of it
    /// contains; `nil` when none.
    func heldWord(in text: String) -> Whitelist.Disqualifier? {
        guard !text.isEmpty, !whitelist.heldWords.isEmpty else { return nil }
        let key = "H" + whitelist.heldDigest + whitelist.registersDigest + "\u{0}" + text
        if let known = DisqualifierCache.shared.value(for: key) {
            return known.flatMap { id in (whitelist.heldWords + whitelist.heldStems).first { $0.id == id } }
        }
        let lists = Normalizer.guardTokenLists(text)
        let found = search(lists, byFirstWord: heldByFirstWord) ?? whitelist.heldStems.first { stem in
            lists.contains { $0.contains { $0.contains(stem.tokens[0]) } }
        }
        DisqualifierCache.shared.store(found?.id, for: key)
        return found
    }

    /// The shortest word the misspelling check reads (6 letters): shorter words are one letter away
    /// from too many others.
    static let typoLength = 6

    /// A word of `title` that is a disqualifier or a held word misspelt: at least `typoLength`
    /// letters, unknown to the lexicon (`CommonWordLexicon.isKnownWord`), not a given name of
    /// `given-names.txt` nor a child of the family, not capitalised after the title's first word
    /// (a proper noun: "Vacances en Bresse"), and one edit away (a letter added, removed,
    /// replaced, or two neighbours swapped: Damerau–Levenshtein distance 1) from a one-word form of
    /// `typoLength` letters or more ("dentise", "dentsite", "psycologue", "enterement").
    /// - Returns: the id of the rule it is near, a disqualifier's before a held word's (`D15` for
    ///   "dentise"): never the title's own text; `nil` when none, and always without a lexicon: then every real word would be a suspect ("grimpe" is
    /// one letter from "grippe").
    func misspelt(in title: String) -> String? {
        guard let commonWords, !title.isEmpty else { return nil }
        for (i, token) in Normalizer.tokens(title).enumerated() {
            // A capitalised word after the first is a proper noun (a place, a surname: "Vacances
            // en Bresse", "Anniv Tom Becker"), not a misspelling.
            if i > 0, Self.isGivenName(token.original) { continue }
            let word = Normalizer.guardFold(token.original)
            guard word.count >= Self.typoLength, word.allSatisfy(\.isLetter) else { continue }
            let letters = Array(word)
            let near = typoTargets.first { abs($0.letters.count - letters.count) <= 1 && Self.oneEditApart(letters, $0.letters) }?.rule
            // Names are compared plainly folded: the look-alike skeleton writes "m" as "rn".
            let plain = Normalizer.fold(token.original)
            guard let near, !whitelist.allGivenNamesFolded.contains(plain),
                  !familyKeys.contains(where: { $0.plain == plain || $0.skeleton == word }),
                  !commonWords.isKnownWord(token.original)
            else { continue }
            return near
        }
        return nil
    }

    /// Whether `a` and `b` differ by exactly one edit: a letter inserted, deleted or replaced, or
    /// two neighbouring letters swapped.
    static func oneEditApart(_ a: [Character], _ b: [Character]) -> Bool {
        if a == b { return false }
        if a.count == b.count {
            let diff = a.indices.filter { a[$0] != b[$0] }
            if diff.count == 1 { return true }
            return diff.count == 2 && diff[1] == diff[0] + 1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
        }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count, long[i] == short[i] { i += 1 }
        return long[(i + 1)...].elementsEqual(short[i...])
    }

    private func searchDisqualifier(in text: String) -> Whitelist.Disqualifier? {
        search(Normalizer.guardTokenLists(text), byFirstWord: disqualifiersByFirstWord)
    }

    private func search(_ lists: [[String]], byFirstWord: [String: [RuleForm]]) -> Whitelist.Disqualifier? {
        for tokens in lists {
            for i in tokens.indices {
                guard let candidates = byFirstWord[tokens[i]] else { continue }
                let hits = candidates.filter { f in
                    i + f.tokens.count <= tokens.count
                        && f.spellings.indices.allSatisfy { f.spellings[$0].contains(tokens[i + $0]) }
                }
                // The longest, then the one written exactly as in the text.
                func rank(_ f: RuleForm) -> (Int, Int) {
                    (f.tokens.count, f.tokens.indices.filter { tokens[i + $0] == f.tokens[$0] }.count)
                }
                if let best = hits.max(by: { rank($0) < rank($1) }) { return best.rule }
            }
        }
        return nil
    }

    /// The spellings of a disqualifier word that a title word may use: itself, and for words of
    /// three letters or more a plural in -s or -x, a singular without the final -s, and -aux for
    /// -al (hôpital, hôpitaux).
    static func spellings(_ word: String) -> Set<String> {
        var forms: Set<String> = [word]
        guard word.count >= 3 else { return forms }
        forms.insert(word + "s")
        forms.insert(word + "x")
        if word.hasSuffix("s") { forms.insert(String(word.dropLast())) }
        if word.hasSuffix("al") { forms.insert(String(word.dropLast(2)) + "aux") }
        return forms
    }

    /// Whether a captured name may be kept: the name pattern, and neither a disqualifier (also
    /// hidden inside it, for the longer ones: `Tomhôpital`) nor a forbidden-register word.
    public func acceptsName(_ name: String) -> Bool {
        guard Self.isGivenName(name) else { return false }
        if firstDisqualifier(in: name) != nil { return false }
        let folded = Normalizer.guardFold(name)
        for d in whitelist.disqualifiers {
            for variant in d.variants where variant.count == 1 && variant[0].count >= 5 {
                if folded.contains(variant[0]) { return false }
            }
        }
        let plain = Normalizer.fold(name)
        return !plain.split(separator: "-").contains { whitelist.registerWords.contains(String($0)) }
            && !whitelist.registerWords.contains(plain)
    }

    /// Whether a name captured in a form's slot may be kept as a friend's or a relative's first
    /// name: `acceptsName`, and either a child of the family (as registered), a family word
    /// (Mamie, Papy) or a parent (Papa, Maman, the owner words of `parents.txt`), a name of
    /// `given-names.txt` (also one marked `capitalised`: Rose, Pierre), or a word `commonWords`
    /// does not know as a common noun or an adjective. "l'anniversaire de Police / Leucémie /
    /// Meunier", "les vacances chez Foyer" keep no name; without a lexicon only listed names are
    /// kept. The same rule checks a stored moment (`restored`) and an audit line (`AuditFile.verify`).
    public func acceptsCapturedName(_ name: String) -> Bool {
        guard acceptsName(name) else { return false }
        let folded = Normalizer.fold(name)
        if family.contains(where: { $0.firstName == name }) || whitelist.allGivenNamesFolded.contains(folded)
            || Self.familyWords.contains(folded) || ownerBySpelling[folded] != nil
        {
            return true
        }
        guard let commonWords else { return false }
        return !name.split(separator: "-").contains { commonWords.isCommonNounOrAdjective(String($0)) }
            && !commonWords.isCommonNounOrAdjective(name)
    }

    /// The longest form; on equal length the higher `tie` rank, then the earliest in the title.
    private func bestForm(in tokens: [Token]) -> (form: Whitelist.Form, start: Int)? {
        var best: (form: Whitelist.Form, start: Int)?
        for i in tokens.indices {
            guard let candidates = formsByFirstToken[Self.formKey(tokens[i].folded)] else { continue }
            for form in candidates where matches(form.tokens, tokens, at: i) {
                guard let current = best else {
                    best = (form, i)
                    continue
                }
                if form.tokens.count > current.form.tokens.count
                    || form.tokens.count == current.form.tokens.count && form.tie.rank > current.form.tie.rank
                {
                    best = (form, i)
                }
            }
        }
        return best
    }

    private func matches(_ pattern: [String], _ tokens: [Token], at i: Int) -> Bool {
        guard i + pattern.count <= tokens.count else { return false }
        for k in pattern.indices where Self.formKey(tokens[i + k].folded) != Self.formKey(pattern[k]) { return false }
        return true
    }

    /// The index of the name slot's token: after `de`/`d'` or directly after the form (slot `de`),
    /// after `chez` (slot `chez`).
    private func slotPosition(after end: Int, in tokens: [Token], slot: Whitelist.NameSlot) -> Int? {
        guard end < tokens.count else { return nil }
        switch slot {
        case .none:
            return nil
        case .de:
            if tokens[end].folded == "de" || tokens[end].folded == "d'" {
                return end + 1 < tokens.count ? end + 1 : nil
            }
            return end
        case .chez:
            return tokens[end].folded == "chez" && end + 1 < tokens.count ? end + 1 : nil
        }
    }

    /// Whether a birthday's slot names someone other than the family's children, so that a child
    /// named elsewhere in the title is a guest, not the one celebrated: a family word or a parent
    /// word in the slot ("Anniv mamie avec Noah", "Anniv papa Noah"), or any word after an explicit
    /// `de`/`d'` ("Anniv de la maîtresse avec Inès").
    private func slotNamesSomeoneElse(_ p: Int?, after end: Int, in tokens: [Token]) -> Bool {
        guard let p else { return false }
        let word = tokens[p].folded
        // "Anniv de notre Noah", "Anniv de mon Noah": a possessive before the child's name.
        if Self.possessives.contains(word) { return false }
        if Self.peopleWords.contains(word) { return true }
        if p > end { return true }
        return Self.familyWords.contains(word) || ownerBySpelling[Normalizer.guardFold(tokens[p].original)] != nil
    }

    /// Possessives: before a parent word they make a companion ("avec ma maman"); between a
    /// birthday and the child's name they keep it the child's ("Anniv de notre Noah").
    static let possessives: Set<String> = [
        "ma", "mon", "mes", "ta", "ton", "tes", "sa", "son", "ses", "notre", "nos", "votre", "vos", "leur", "leurs",
    ]

    /// Nouns for someone else in a birthday's name slot ("Anniv copain de Noah": Noah's friend's
    /// birthday, Noah a guest).
    static let peopleWords: Set<String> = [
        "copain", "copains", "copine", "copines", "ami", "amis", "amie", "amies", "pote", "potes",
        "cousin", "cousins", "cousine", "cousines", "voisin", "voisins", "voisine", "voisines",
        "camarade", "camarades", "maitresse", "maitre", "prof", "nounou",
    ]

    /// Words that put the children in the title as a group ("les enfants chez papa", "Ciné en
    /// famille avec maman"): then a parent word names a companion, never the owner.
    static let childrenTogether: Set<String> = ["enfants", "enfant", "famille", "fratrie", "kids"]

    /// Whether a parent word cannot be the owner of this title: the children are named as a group,
    /// or the form is a holiday ("Vacances Bretagne (papa)": the children's holidays with their
    /// father; the custody rules of `parents.txt` decide the hand-overs).
    static func ownerDoesNotApply(_ tokens: [Token], form: Whitelist.Form?) -> Bool {
        if tokens.contains(where: { childrenTogether.contains($0.folded) }) { return true }
        return form?.grammar.headNoun == "vacances"
    }

    /// The first owner word (`parents.txt`: papa, maman) standing as the owner of the title: not
    /// right after a link word (`ownerLinkWords`), not inside the form, not in the form's name
    /// slot. Words that only invisible characters cut are read whole (`pa\u{200B}pa`); look-alike
    /// letters and plurals as for the parents' rules.
    private func ownerWord(in tokens: [Token], glued: [Bool], form: (form: Whitelist.Form, start: Int)?) -> Whitelist.Disqualifier? {
        guard !ownerBySpelling.isEmpty else { return nil }
        var excluded = Set<Int>()
        if let form {
            let end = form.start + form.form.tokens.count
            excluded.formUnion(form.start..<end)
            if form.form.slot == .de, let p = slotPosition(after: end, in: tokens, slot: .de) { excluded.insert(p) }
        }
        var unitStart = 0
        for end in tokens.indices where !glued[end] {
            var candidates = (unitStart...end).map { ($0, Normalizer.guardFold(tokens[$0].original)) }
            if end > unitStart {
                candidates.insert((unitStart, Normalizer.guardFold(tokens[unitStart...end].map(\.original).joined())), at: 0)
            }
            for (i, key) in candidates {
                guard let rule = ownerBySpelling[key], !excluded.contains(i) else { continue }
                if i > 0 {
                    // The word before, folded plainly ("ma", "mon") and the suspicious way (a
                    // look-alike "dе"): either reading as a link word makes a companion.
                    let elision = tokens[i - 1].folded.hasSuffix("'") ? "'" : ""
                    let readings = [Normalizer.guardFold(tokens[i - 1].original) + elision, tokens[i - 1].folded]
                    // "de papa" is his own activity after an activity ("Gym de maman", "Foot de
                    // papa"), but his birthday in a birthday ("Anniv de papa"), and a feast
                    // without a form ("Fête des papas") waits for the parent.
                    let links = form.map { $0.form.slot != .de } == true ? Self.ownerLinkWords.subtracting(Self.ofWords) : Self.ownerLinkWords
                    if readings.contains(where: links.contains) { continue }
                }
                return rule
            }
            unitStart = end + 1
        }
        return nil
    }

    /// Whether the children named form one list: next to one another or joined by `et` only
    /// ("Noah et Inès", "Noah & Inès", "Noah/Inès": punctuation is no token).
    private static func listedTogether(_ hits: [(run: ClosedRange<Int>, member: FamilyMember)], in tokens: [Token]) -> Bool {
        let runs = hits.map(\.run).sorted { $0.lowerBound < $1.lowerBound }
        for (a, b) in zip(runs, runs.dropFirst()) where b.lowerBound > a.upperBound {
            let between = tokens[(a.upperBound + 1)..<b.lowerBound]
            guard between.allSatisfy({ $0.folded == "et" }), between.count <= 1 else { return false }
        }
        return true
    }

    /// The friend's name in the slot at `p` (not a child of the family): a family word after
    /// `chez`, a capitalised given name, or a lower-case name of `given-names.txt` written as the
    /// list writes it; always through `acceptsName`. A token that invisible characters glue to the
    /// next one is not a whole name.
    private func capturedName(at p: Int, in tokens: [Token], glued: [Bool], slot: Whitelist.NameSlot) -> String? {
        guard !glued[p] else { return nil }
        let candidate = tokens[p].original
        if slot == .chez, Self.familyWords.contains(candidate) { return candidate }
        if Self.isGivenName(candidate) { return acceptsCapturedName(candidate) ? candidate : nil }
        guard candidate.unicodeScalars.allSatisfy({ $0 == "-" || $0.properties.isLowercase && Self.isLatinLetter($0) }),
            let listed = whitelist.givenNames[candidate] ?? whitelist.givenNamesFolded[tokens[p].folded]
        else { return nil }
        return acceptsName(listed) ? listed : nil
    }

    /// Every run of tokens that names a child of the family: a single token, or tokens only
    /// invisible characters separate. A word of Latin letters is compared folded (case, accents);
    /// anything else (another script, digits, compatibility forms, a glued run) through the
    /// look-alike skeleton (`Normalizer.guardFold`), as disqualifiers are.
    private func childRuns(in tokens: [Token], glued: [Bool]) -> [(run: ClosedRange<Int>, member: FamilyMember)] {
        guard !familyKeys.isEmpty else { return [] }
        var hits: [(run: ClosedRange<Int>, member: FamilyMember)] = []
        var unitStart = 0
        for end in tokens.indices where !glued[end] {
            // tokens[unitStart...end] is one unit; every run inside it is a candidate.
            for i in unitStart...end {
                var joined = ""
                for j in i...end {
                    joined += tokens[j].original
                    let plainLatin = i == j && joined.unicodeScalars.allSatisfy { $0 == "-" || Self.isLatinLetter($0) }
                    let folded = Normalizer.fold(joined)
                    // Skeletons of the folded word and of the word as written: a Greek capital Nu
                    // lower-cases to a letter that looks like v, not like n.
                    let skeletons: Set<String> = plainLatin
                        ? [] : [Normalizer.guardFold(joined), Normalizer.fold(Confusables.skeleton(joined))]
                    for key in familyKeys
                    where plainLatin ? folded == key.plain : (skeletons.contains(key.skeleton) || skeletons.contains(key.plain) || folded == key.plain)
                    {
                        hits.append((i...j, key.member))
                    }
                }
            }
            unitStart = end + 1
        }
        return hits
    }

    /// A capitalised given name, checked code point by code point: Latin letters only (ASCII,
    /// Latin-1 and Latin Extended-A/B, accents precomposed), the first one upper case and some
    /// lower case (an all-caps word is not taken for a name), at most one inner hyphen, 2 to 20
    /// letters. No digits, no invisible or combining characters, no other
    /// script (a Cyrillic look-alike is not a letter here).
    public static func isGivenName(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard let first = scalars.first, first.properties.isUppercase, isLatinLetter(first) else { return false }
        var letters = 0
        var hyphens = 0
        for (k, s) in scalars.enumerated() {
            if s == "-" {
                hyphens += 1
                guard k > 0, k < scalars.count - 1, scalars[k - 1] != "-" else { return false }
            } else if isLatinLetter(s) {
                letters += 1
            } else {
                return false
            }
        }
        // "CLASSE", "MARIAGE" in an all-caps title are words, not names: a name has lower case.
        guard scalars.contains(where: { $0.properties.isLowercase }) else { return false }
        return hyphens <= 1 && (2...20).contains(letters)
    }

    private static func isLatinLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A: return true
        case 0xC0...0xFF: return s.value != 0xD7 && s.value != 0xF7
        case 0x100...0x24F: return s.properties.isAlphabetic
        default: return false
        }
    }

    /// "l'anniversaire" + "Anaïs" -> "l'anniversaire d'Anaïs"; "les vacances" + "mamie" (chez) ->
    /// "les vacances chez mamie". `de` is elided before a vowel or a mute h.
    public static func render(_ phrase: String, slot: Whitelist.NameSlot, name: String?) -> String {
        guard let name else { return phrase }
        switch slot {
        case .none: return phrase
        case .chez: return "\(phrase) chez \(name)"
        case .de:
            let initial = Normalizer.fold(String(name.prefix(1)))
            return "aeiouh".contains(initial) ? "\(phrase) d'\(name)" : "\(phrase) de \(name)"
        }
    }
}

/// The filter's decision for one occurrence.
public enum FilterDecision: Hashable, Sendable {
    case moment(Moment)
    /// The disqualifier's id, never the matched text.
    case disqualified(rule: String)
    /// No name kept at all.
    case unlabeled
}

/// Why a parent's label was refused.
public enum LabelError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case tooLong(Int)
    case disqualified(rule: String)

    public var description: String {
        switch self {
        case .empty: return tr("the label is empty")
        case .tooLong(let n): return tr("the label has %ld characters; %ld at most", n, 60)
        case .disqualified(let rule):
            return tr("the label contains a word of the disqualifier list (rule %@); such events are never used", rule)
        }
    }
}

/// Remembers which disqualifier (if any) a text contains, per whitelist.
final class DisqualifierCache: @unchecked Sendable {
    static let shared = DisqualifierCache()
    private let lock = NSLock()
    private var values: [String: String?] = [:]

    func value(for key: String) -> String?? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    func store(_ value: String?, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        if values.count > 100_000 { values.removeAll(keepingCapacity: true) }
        values[key] = .some(value)
    }
}
