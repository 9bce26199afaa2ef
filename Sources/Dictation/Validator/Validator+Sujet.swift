import DicteeCore
import Foundation
import French

// Step 7, moment (rules moment_sujet and moment_famille): the text is about its moment, and it
// names no relative the child may not have.

/// The words of each moment kind (`Resources/kind-topics.tsv`) and the kinds of the whitelist's
/// phrases (`Resources/moment-kinds.tsv`), as the validator reads them. Format and rule:
/// Docs/library-format.md, "What a text is about".
public struct MomentTopics: Sendable {
    /// Kind → lemmas (lower case, as Lexique 3.83 writes them), in the file's order.
    public var topics: [String: [String]]
    /// The kinds of the canonical phrases (the library's reading of `moment-kinds.tsv`).
    public var kinds: Library

    /// Parses `kind<TAB>lemma,lemma` lines (`#` comments, an optional `kind<TAB>topic` header).
    /// - Throws: `LibraryError.malformedKinds` naming the line of a malformed or repeated kind.
    public static func parseTopics(_ text: String, file: String) throws(LibraryError) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw)
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") || line == "kind\ttopic" { continue }
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            let kind = parts[0].trimmingCharacters(in: .whitespaces)
            let lemmas = parts.count == 2 ? parts[1].split(separator: ",").map { Tokenizer.normalize($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty } : []
            guard parts.count == 2, !kind.isEmpty, !lemmas.isEmpty, out[kind] == nil else { throw .malformedKinds(file: file, line: index + 1) }
            out[kind] = lemmas
        }
        return out
    }

    /// The bundled lists (`nil` only when the resources are missing or malformed, which the
    /// library's tests rule out).
    public static let bundled: MomentTopics? = {
        guard let library = try? Library.bundled(grades: []) else { return nil }
        return MomentTopics(topics: library.topics, kinds: library)
    }()

    /// The lemmas a text about `moment` must draw from: the union of the lists of its fitting
    /// kinds (`Library.fittingKinds`) and of its other kinds that have one, without the words of
    /// the phrase itself; empty for a parent's label (its head noun is named), for a phrase
    /// whose kinds have no list (la sortie, le centre de loisirs), or a phrase not listed. The
    /// library serves a judo lesson only texts of its own kind (the tatami, the kimono); a text
    /// from elsewhere may speak of it as a sport ("les exercices", "l'entraîneur").
    public func words(for moment: MomentPhrase) -> Set<String> {
        guard moment.kind == nil else { return [] }
        let kinds = topicKinds(of: moment.phrase)
        var words = kinds.reduce(into: Set<String>()) { $0.formUnion(topics[$1] ?? []) }
        let phrase = Tokenizer.tokenize(moment.phrase).tokens.filter { $0.kind == .word }.map(\.normalized)
        words.subtract(phrase)
        return words
    }
}

extension MomentTopics {
    /// Kinds whose phrases are a stay somewhere ("les vacances", "le week-end", "la colonie de
    /// vacances"): a stay is told by what one does there, so the words of `stayActivityKinds`
    /// count for it too (a seaside holiday speaks of the beach, not of the suitcase).
    public static let stayKinds: Set<String> = ["sejour"]
    /// What one does during a stay: outdoors, in the water, on the snow.
    public static let stayActivityKinds: Set<String> = ["plein_air", "eau", "glisse"]
    /// Kinds that are the setting of many moments (the weather, the walk, the snack) rather than
    /// a subject of their own: never a competing subject for `moment_sujet`.
    public static let ambientKinds: Set<String> = ["plein_air", "repas"]

    /// The kinds whose words a text about the whitelist phrase `phrase` draws from: its fitting
    /// kinds (`Library.fittingKinds(of:)`) and its other kinds in `moment-kinds.tsv` that have
    /// words (a judo lesson is also a sport), and `stayActivityKinds` when they are all stays.
    public func topicKinds(of phrase: String) -> Set<String> {
        var kinds = self.kinds.fittingKinds(of: phrase)
            .union(self.kinds.kinds(of: phrase).map { $0.hasPrefix("!") ? String($0.dropFirst()) : $0 }.filter { topics[$0] != nil })
        if !kinds.isEmpty, kinds.isSubset(of: Self.stayKinds) { kinds.formUnion(Self.stayActivityKinds) }
        return kinds
    }

    /// The kinds a text about `phrase` may not speak of more than of its own: every kind with
    /// words but those of the phrase in `moment-kinds.tsv` (own or not), its topic kinds and the
    /// ambient ones.
    public func competingKinds(of phrase: String) -> Set<String> {
        let listed = Set(kinds.kinds(of: phrase).map { $0.hasPrefix("!") ? String($0.dropFirst()) : $0 })
        return Set(topics.keys).subtracting(listed).subtracting(topicKinds(of: phrase)).subtracting(Self.ambientKinds)
    }
}

extension Validator {
    /// The relatives a text may not invent (lemmas, lower case): the child's family is not
    /// known, so a text names "sa famille", friends, the class, the teacher, and the people its
    /// moment names ("le dîner chez Mamie"), never a brother, a cousin or "papa".
    public static let relatives: Set<String> = FamilyWords.all.union([
        "frère", "sœur", "cousin", "cousine", "oncle", "tante", "papa", "maman", "parent", "parents", "père", "mère",
        "grand-mère", "grand-père", "grands-parents", "grand-parent", "mémé", "pépé", "mamy", "papy", "neveu", "nièce",
        "demi-frère", "demi-sœur", "beau-père", "belle-mère", "petit-fils", "petite-fille", "arrière-grand-mère", "arrière-grand-père",
        "nounou", "nourrice",
    ])

    /// Words for the same relative: a moment that names one ("le dîner chez Mamie") lets a text
    /// say the others ("sa grand-mère").
    static let relativeSynonyms: [Set<String>] = [
        ["mamie", "mamy", "mémé", "grand-mère", "grand-mères"], ["papi", "papy", "pépé", "grand-père", "grand-pères"],
        ["maman", "mère"], ["papa", "père"], ["tata", "tante"], ["tonton", "oncle"],
    ]

    /// Words that stand for the child's own household when a possessive or "de" + a name owns
    /// them, adjectives between allowed ("sa petite chienne", "leur vieux chien"): a child has no
    /// husband, wife, son or daughter, a twin or an elder sibling the family may not have ("sa
    /// jumelle", "son aîné"), and a pet the family may not have is invented too ("son chien";
    /// "un chien" seen at the park, "l'aîné de la classe" are not).
    static let ownedOnly: [String: String] = [
        "mari": "spouse", "femme": "spouse", "épouse": "spouse", "époux": "spouse", "fils": "spouse", "fille": "spouse",
        "chien": "pet", "chienne": "pet", "chiot": "pet", "chat": "pet", "chatte": "pet", "chaton": "pet",
        "lapin": "pet", "hamster": "pet", "perruche": "pet", "tortue": "pet",
        "jumeau": "sibling", "jumelle": "sibling", "aîné": "sibling", "aînée": "sibling", "cadet": "sibling", "cadette": "sibling",
    ]

    /// Rules `moment_sujet` (a text about a whitelist moment uses words of its kinds besides the
    /// phrase: one in CP and CE1, two different ones from CE2; `MomentTopics.words(for:)`) and
    /// `moment_famille` (no relative of `relatives` unless the moment's phrase names it or one of
    /// its synonyms, `relativeSynonyms`; a friend's own parent, "la maman de Tom" when the
    /// moment names Tom, is not the child's; the parents of a class as a group ("les parents
    /// sont venus applaudir") are not the child's; "le père Noël", "une barbe à papa", "la fête des
    /// mères" are no relatives; and no spouse, son, daughter or pet owned by a possessive,
    /// `ownedOnly`: "son mari", "sa fille", "son chien", "le chien de Tom").
    func subjectFindings(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        var out: [Finding] = []
        let t = a.tagged
        let phraseWords = Set(phraseWords(plan.moment.phrase))
        var named = phraseWords
        for group in Self.relativeSynonyms where !group.isDisjoint(with: phraseWords) { named.formUnion(group) }
        if phraseWords.contains("grands-parents") { for group in Self.relativeSynonyms.prefix(2) { named.formUnion(group) } }
        let friend = plan.moment.friendName.map(Tokenizer.normalize)
        let word = t.indices.filter { t[$0].token.kind == .word }
        func w(_ n: Int) -> String? { n >= 0 && n < word.count ? t[word[n]].normalized : nil }
        for (n, k) in word.enumerated() {
            let tok = t[k]
            let forms = Set([tok.normalized] + tok.entries.map { Tokenizer.normalize($0.lemma) })
            guard !forms.isDisjoint(with: Self.relatives), named.isDisjoint(with: forms) else { continue }
            if ["père", "mère", "papa"].contains(tok.normalized), let next = w(n + 1), ["noël", "noel"].contains(next) { continue }
            // "une barbe à papa" (candyfloss), "la fête des mères".
            if tok.normalized == "papa", w(n - 1) == "à", w(n - 2) == "barbe" { continue }
            // The parents of a class or a club as a group: "les parents sont venus applaudir",
            // "des parents accompagnaient la classe", "les élèves dansent devant leurs parents" (not
            // "ses parents", "mes parents").
            if tok.normalized == "parents", ["les", "des", "aux", "leurs"].contains(w(n - 1) ?? "") { continue }
            if ["pères", "mères", "grands-mères", "grands-pères"].contains(tok.normalized), w(n - 1) == "des", w(n - 2) == "fête" { continue }
            // The moment's friend's own parent: "la maman de Tom".
            if let friend, ["de", "d'"].contains(w(n + 1) ?? ""), w(n + 2) == friend { continue }
            out.append(Finding(step: .moment, rule: "moment_famille", message:
                "N'écris pas « \(shown(tok.token.text)) » : la famille de l'enfant n'est pas connue ; parle de ses copains, de sa classe ou de « sa famille »."))
            break
        }
        if !out.contains(where: { $0.rule == "moment_famille" }) {
            for (n, k) in word.enumerated() {
                let key = Self.ownedOnly[t[k].normalized] != nil ? t[k].normalized
                    : t[k].entries.first(where: { $0.partOfSpeech == .noun && Self.ownedOnly[$0.lemma] != nil })?.lemma
                guard let key, let kind = Self.ownedOnly[key], !phraseWords.contains(key), !phraseWords.contains(t[k].normalized) else { continue }
                // The possessive, up to two adjectives before the noun: "sa petite chienne".
                var p = n - 1
                while p >= 0, n - p <= 2, t[word[p]].wordClass == .adjective { p -= 1 }
                let possessed = p >= 0 && FrenchWords.possessives.contains(w(p) ?? "")
                let owned = possessed
                    || (["de", "d'"].contains(w(n + 1) ?? "") && n + 2 < word.count && t[word[n + 2]].wordClass == .properNoun)
                guard owned else { continue }
                let phrase = possessed ? (p...n).map { t[word[$0]].token.text }.joined(separator: " ") : t[k].token.text
                let message = switch kind {
                case "pet": "N'écris pas « \(shown(phrase)) » : on ne sait pas qui a un animal à la maison ; parle des animaux que l'enfant voit pendant le moment (« un chien courait dans le parc »)."
                case "sibling": "N'écris pas « \(shown(phrase)) » : la famille de l'enfant n'est pas connue ; parle de ses copains, de sa classe ou de « sa famille »."
                default: "N'écris pas « \(shown(phrase)) » : un enfant n'a ni mari, ni femme, ni enfant ; parle de ses copains, de sa classe ou de « sa famille »."
                }
                out.append(Finding(step: .moment, rule: "moment_famille", message: message))
                break
            }
        }
        guard let topics = MomentTopics.bundled?.words(for: plan.moment), !topics.isEmpty else { return out }
        let found = Self.topicWords(of: a, in: topics, skipping: phraseWords)
        let needed = [.cp, .ce1].contains(plan.grade) ? 1 : 2
        // A text that speaks clearly more of another moment than of its own is about that one:
        // a birthday text (gâteau, bougies, cadeaux, ballons) served for "le cours de judo",
        // where only "ballons" and "gagner" are judo's words. Counted on the words each side has
        // that the other lacks: the other's at least twice the moment's plus two (a show where
        // the children sing and dance, « chanter, chanson, danser » against « public, applaudir
        // », is still a show).
        if found.count >= needed, let bundled = MomentTopics.bundled {
            var all = Set<String>()
            let every = bundled.topics.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            for tok in t where tok.token.kind == .word && !phraseWords.contains(tok.normalized) {
                all.formUnion(Set([tok.normalized] + tok.entries.map { Tokenizer.normalize($0.lemma) }).intersection(every))
            }
            for kind in bundled.competingKinds(of: plan.moment.phrase).sorted() {
                let list = Set(bundled.topics[kind] ?? [])
                let theirs = all.intersection(list).subtracting(topics)
                let ours = found.subtracting(list)
                if theirs.count >= 2 * ours.count + 2 {
                    out.append(Finding(step: .moment, rule: "moment_sujet", message:
                        "Le texte parle surtout d'un autre moment (\(theirs.sorted().prefix(3).map { "« \($0) »" }.joined(separator: ", "))) : raconte le moment « \(plan.moment.phrase) » avec ses propres mots (\(examples(plan, topics)))."))
                    return out
                }
            }
        }
        // A moment with kinds of its own (a judo lesson: tatami, kimono…) that uses none of their
        // words while it uses two of another moment's is about that one: a "judo" text where the
        // group swims all along (plonger, bassin, nager).
        if found.count >= needed, plan.moment.kind == nil, let bundled = MomentTopics.bundled {
            let own = Library.ownKinds(bundled.kinds.kinds(of: plan.moment.phrase))
            let ownWords = own.reduce(into: Set<String>()) { $0.formUnion(bundled.topics[$1] ?? []) }
            var used = Set<String>()
            for tok in t where tok.token.kind == .word && !phraseWords.contains(tok.normalized) {
                used.formUnion([tok.normalized] + tok.entries.map { Tokenizer.normalize($0.lemma) })
            }
            let elsewhere = bundled.competingKinds(of: plan.moment.phrase).contains { kind in
                used.intersection(bundled.topics[kind] ?? []).subtracting(topics).count >= 2
            }
            if !own.isEmpty, found.isDisjoint(with: ownWords), elsewhere {
                let examples = bundled.topics[own.sorted()[0]].map { Array($0.prefix(4)) } ?? []
                out.append(Finding(step: .moment, rule: "moment_sujet", message:
                    "Le texte doit parler du moment « \(plan.moment.phrase) » lui-même : emploie des mots comme \(examples.joined(separator: ", "))."))
                return out
            }
        }
        if found.count < needed {
            out.append(Finding(step: .moment, rule: "moment_sujet", message:
                "Le texte doit raconter ce qu'on fait pendant le moment « \(plan.moment.phrase) », pas seulement le nommer : emploie des mots comme \(examples(plan, topics.subtracting(found)))."))
        }
        return out
    }

    /// Examples of a moment's words: the first words of each of its kinds, the most specific
    /// kind (the shortest list) first, at most six.
    func examples(_ plan: DictationPlan, _ topics: Set<String>) -> String {
        let lists = (MomentTopics.bundled.map { t in t.topicKinds(of: plan.moment.phrase).sorted().compactMap { t.topics[$0] } } ?? [])
            .sorted { $0.count < $1.count }
        var examples: [String] = []
        for list in lists { for w in list.filter(topics.contains).prefix(3) where !examples.contains(w) { examples.append(w) } }
        return examples.prefix(6).joined(separator: ", ")
    }
}

extension Validator {
    /// The topic lemmas a text uses, each once: a word counts by its written form or one of its
    /// Lexique lemmas (its first one in `lemmas`, alphabetically); words in `skipping` (the
    /// moment phrase's own) do not count, unless used as a verb ("elle danse" at le cours de
    /// danse counts as danser; "le cours de danse" itself does not).
    static func topicWords(of a: TextAnalysis, in lemmas: Set<String>, skipping: Set<String> = []) -> Set<String> {
        var found = Set<String>()
        for tok in a.tagged where tok.token.kind == .word {
            let forms: Set<String>
            if skipping.contains(tok.normalized) {
                guard [.finiteVerb, .infinitive, .pastParticiple].contains(tok.wordClass) else { continue }
                forms = Set(tok.entries.filter { $0.partOfSpeech.isVerb }.map { Tokenizer.normalize($0.lemma) })
            } else {
                forms = Set([tok.normalized] + tok.entries.map { Tokenizer.normalize($0.lemma) })
            }
            if let hit = forms.intersection(lemmas).sorted().first { found.insert(hit) }
        }
        return found
    }
}
