import DicteeCore
import Foundation

/// The privacy filter's rules, read from the plain-text files an auditor reads in `Whitelists/`:
/// `moments.tsv` (the closed whitelist of canonical French moments), `disqualifiers.txt` (words
/// that make an event sensitive), `parents.txt` (words that make an event the parents' own),
/// `given-names.txt` (first names that may be captured in lower case) and `held.txt` (words that
/// keep an event for the parent, with categories of `registers.txt`). Deny by default: an event
/// passes only through a form of the whitelist; disqualifiers are checked first and win, then the
/// parents' rules (Docs/style.md, Privacy filter).
public struct Whitelist: Sendable {
    /// One surface form of the whitelist, e.g. `anniv` -> `l'anniversaire`.
    public struct Form: Hashable, Sendable {
        /// Stable rule id, `M001`...
        public var id: String
        /// As families write it, e.g. `goûter d'anniv`.
        public var form: String
        /// The canonical phrase with its article, e.g. `le goûter d'anniversaire`.
        public var phrase: String
        public var grammar: PhraseGrammar
        /// Where a first name may follow.
        public var slot: NameSlot
        /// `form`, tokenized and folded.
        public var tokens: [String]
        /// How the form fares when another form of the same length matches the same title.
        public var tie: Tie = .normal
    }

    /// The `tie` column of `moments.tsv`: when two forms of the same length (in tokens) match one
    /// title, a `generic` form (`sortie`, `balade`: the phrase says less than the other form's) loses,
    /// an `event` form (`match`, `tournoi`: not a training) wins, and between equals the earliest in
    /// the title wins. "Sortie vélo" is "la balade à vélo", "Match basket" is "le match".
    public enum Tie: String, Hashable, Sendable {
        case generic
        case normal = "-"
        case event

        /// Higher wins a tie.
        var rank: Int {
            switch self {
            case .generic: return 0
            case .normal: return 1
            case .event: return 2
            }
        }
    }

    /// Where a captured name goes: "l'anniversaire de Tom", "les vacances chez mamie".
    public enum NameSlot: String, Hashable, Sendable {
        case none, de, chez
    }

    /// A word or phrase that disqualifies an event, e.g. `prise de sang`, with the other forms of
    /// the same word its row carries (`hôpital | hôp | hospitalisée | CHU | 🏥`).
    public struct Disqualifier: Hashable, Sendable {
        /// Stable id, `D01`...
        public var id: String
        /// The row's first form, as written (`hôpital`): what messages name.
        public var text: String
        /// `text` tokenized and folded with `Normalizer.guardFold` (look-alike skeletons).
        public var tokens: [String]
        /// Every form of the row (the first is `tokens`), each tokenized and folded the same way; a
        /// pictograph form (`🏥`) is one token of its own (`Normalizer.pictographs`).
        public var variants: [[String]]

        public init(id: String, text: String, tokens: [String], variants: [[String]]? = nil) {
            self.id = id
            self.text = text
            self.tokens = tokens
            self.variants = variants ?? [tokens]
        }
    }

    public var forms: [Form]
    public var disqualifiers: [Disqualifier]
    /// The parents' rules of `parents.txt` (ids `P01`...), shaped and matched like disqualifiers but on
    /// the title only: a title with one of them is the parents' event, never a children's moment.
    public var parentRules: [Disqualifier] = []
    /// The owner words of `parents.txt` (`id<TAB>word<TAB>owner` rows: papa, maman): a parent
    /// named as the owner of the activity makes the title the parents' event (README, "The
    /// privacy filter"); matched by `PrivacyFilter` by position, not as `parentRules` are.
    public var ownerWords: [Disqualifier] = []
    /// `given-names.txt`: lower-cased spelling -> the list's spelling (`zoé` -> `Zoé`).
    public var givenNames: [String: String] = [:]
    /// The same names keyed by `Normalizer.fold` (`zoe` -> `Zoé`), for titles written without accents.
    var givenNamesFolded: [String: String] = [:]
    /// Every name of `given-names.txt`, also those marked `capitalised` (Rose, Pierre), folded: a
    /// captured capitalised word listed here is a given name even when Lexique knows it as a
    /// common noun.
    var allGivenNamesFolded: Set<String> = []
    /// Forbidden-register words (`registers.txt`), folded: never accepted as a captured name.
    public var registerWords: Set<String> = []
    /// SHA-256 (hex) of each file's bytes, as `sha256sum Whitelists/moments.tsv` prints it: the
    /// audit file records the four files that change decisions (`digests`) so that an auditor can
    /// check which rules produced a moment.
    public var momentsDigest: String
    public var disqualifiersDigest: String
    /// SHA-256 (hex) of `parents.txt`.
    public var parentsDigest: String = ""
    /// SHA-256 (hex) of `given-names.txt`.
    public var givenNamesDigest: String = ""
    /// The held words (`held.txt`, with the `registers.txt` categories it takes): one of them in
    /// a title or a location keeps the event `unlabeled` for the parent, never a moment. Shaped
    /// and matched like disqualifiers; ids `H` + the line of `held.txt` (`H21`).
    public var heldWords: [Disqualifier] = []
    /// The `stem` rows of `held.txt`: a word containing the letters (`tokens[0]`, folded with
    /// `Normalizer.guardFold`, at least 4) is held, whatever its ending or prefix.
    public var heldStems: [Disqualifier] = []
    /// SHA-256 (hex) of `held.txt`.
    public var heldDigest: String = ""
    /// SHA-256 (hex) of `registers.txt`.
    public var registersDigest: String = ""

    /// The files whose rules change the filter's decisions and their SHA-256 (hex), in the order
    /// the audit header writes them: `moments.tsv`, `disqualifiers.txt`, `parents.txt`,
    /// `given-names.txt`, `held.txt` and `registers.txt` (whose categories `held.txt` takes; it
    /// also refuses a captured name that is a forbidden-register word).
    public var digests: [(file: String, sha256: String)] {
        [("moments.tsv", momentsDigest), ("disqualifiers.txt", disqualifiersDigest),
         ("parents.txt", parentsDigest), ("given-names.txt", givenNamesDigest),
         ("held.txt", heldDigest), ("registers.txt", registersDigest)]
    }

    /// Parses the files' contents.
    /// - Parameters:
    ///   - moments: `moments.tsv`: a header row, then `id form phrase gender number head slot tie`
    ///     rows (the `tie` column may be left out: `-`).
    ///   - disqualifiers: `disqualifiers.txt` (`id<TAB>entry` lines, `#` comments).
    ///   - registers: `registers.txt` (`category<TAB>word` lines), optional.
    ///   - parents: `parents.txt` (`id<TAB>entry` lines, `#` comments), optional.
    ///   - givenNames: `given-names.txt` (one name a line, or `name<TAB>capitalised` for a name
    ///     captured only when capitalised; `#` comments), optional.
    ///   - held: `held.txt` (`category`, `except` and `word` rows, `#` comments), optional.
    /// - Throws: `WhitelistError` naming the file and line of a malformed row or a duplicate id.
    public init(
        moments: String, disqualifiers: String, registers: String = "", parents: String = "",
        givenNames: String = "", held: String = ""
    ) throws(WhitelistError) {
        var forms: [Form] = []
        var seen = Set<String>()
        for (k, line) in Self.lines(moments).enumerated() {
            let row = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if row.isEmpty || row.hasPrefix("#") || k == 0 && row.hasPrefix("id\t") { continue }
            let f = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 7 || f.count == 8,
                let gender = Gender(rawValue: f[3]), let number = PhraseGrammar.Number(rawValue: f[4]),
                let slot = NameSlot(rawValue: f[6]), !f[1].isEmpty, !f[2].isEmpty,
                let tie = f.count == 8 ? Tie(rawValue: f[7]) : .normal
            else { throw .malformed(file: "moments.tsv", line: k + 1) }
            guard seen.insert(f[0]).inserted else { throw .duplicateID(file: "moments.tsv", id: f[0]) }
            let tokens = Normalizer.tokens(f[1]).map(\.folded)
            guard !tokens.isEmpty else { throw .malformed(file: "moments.tsv", line: k + 1) }
            forms.append(Form(
                id: f[0], form: f[1], phrase: f[2],
                grammar: PhraseGrammar(gender: gender, number: number, headNoun: f[5]), slot: slot,
                tokens: tokens, tie: tie))
        }
        self.forms = forms
        self.disqualifiers = try Self.rules(disqualifiers, file: "disqualifiers.txt", seen: &seen).map(\.rule)
        let parentRows = try Self.rules(parents, file: "parents.txt", seen: &seen, kinds: ["owner"])
        self.parentRules = parentRows.filter { $0.kind == nil }.map(\.rule)
        self.ownerWords = parentRows.filter { $0.kind == "owner" }.map(\.rule)
        var names: [String: String] = [:]
        var folded: [String: String] = [:]
        var everyName = Set<String>()
        for (k, line) in Self.lines(givenNames).enumerated() {
            let row = line.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
            if row.isEmpty || row.hasPrefix("#") { continue }
            let f = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 1 || f.count == 2 && f[1] == "capitalised", !f[0].isEmpty else {
                throw .malformed(file: "given-names.txt", line: k + 1)
            }
            let name = f[0]
            everyName.insert(Normalizer.fold(name))
            if f.count == 2 { continue }
            if names[name.lowercased()] == nil { names[name.lowercased()] = name }
            if folded[Normalizer.fold(name)] == nil { folded[Normalizer.fold(name)] = name }
        }
        self.givenNames = names
        self.givenNamesFolded = folded
        self.allGivenNamesFolded = everyName
        var registerRows: [(category: String, word: String)] = []
        for line in Self.lines(registers) where !line.hasPrefix("#") {
            let f = line.split(separator: "\t")
            guard f.count == 2 else { continue }
            let word = String(f[1]).trimmingCharacters(in: .whitespaces)
            registerWords.insert(Normalizer.fold(word))
            registerRows.append((String(f[0]), word))
        }
        (self.heldWords, self.heldStems) = try Self.heldRules(held, registerRows: registerRows)
        self.heldDigest = SHA256.hex(Array(held.utf8))
        self.registersDigest = SHA256.hex(Array(registers.utf8))
        self.momentsDigest = SHA256.hex(Array(moments.utf8))
        self.disqualifiersDigest = SHA256.hex(Array(disqualifiers.utf8))
        self.parentsDigest = SHA256.hex(Array(parents.utf8))
        self.givenNamesDigest = SHA256.hex(Array(givenNames.utf8))
    }

    /// `id<TAB>entry` rows (disqualifiers, parents' rules), or `id<TAB>entry<TAB>kind` with a kind
    /// of `kinds`; an entry is one form or several separated by ` | ` (the forms of one word:
    /// inflections, derived, full and abbreviated forms); tokens folded with `Normalizer.guardFold`,
    /// or, for a form written `=hôp`, kept with their accents (`Normalizer.accentedTokens`).
    private static func rules(_ text: String, file: String, seen: inout Set<String>, kinds: Set<String> = [])
        throws(WhitelistError) -> [(rule: Disqualifier, kind: String?)]
    {
        var found: [(rule: Disqualifier, kind: String?)] = []
        for (k, line) in lines(text).enumerated() {
            let row = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if row.isEmpty || row.hasPrefix("#") { continue }
            let f = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 2 || f.count == 3 && kinds.contains(f[2]), !f[1].isEmpty else {
                throw .malformed(file: file, line: k + 1)
            }
            guard seen.insert(f[0]).inserted else { throw .duplicateID(file: file, id: f[0]) }
            guard let (forms, variants) = entry(f[1]), f.count == 2 || variants.allSatisfy({ $0.count == 1 }) else {
                throw .malformed(file: file, line: k + 1)
            }
            found.append((Disqualifier(id: f[0], text: forms[0], tokens: variants[0], variants: variants),
                           f.count == 3 ? f[2] : nil))
        }
        return found
    }

    /// One entry of a rule file (`disqualifiers.txt`, `parents.txt`, `held.txt`): its forms as
    /// written, separated by ` | `, and each form's tokens folded with `Normalizer.guardFold`, or for
    /// a form written `=hôp` kept with their accents (`Normalizer.accentedTokens`), or for a
    /// pictograph its own token (`Normalizer.pictographs`); `nil` when a form is empty.
    private static func entry(_ text: String) -> (forms: [String], variants: [[String]])? {
        let forms = text.split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var variants: [[String]] = []
        for form in forms {
            var tokens = form.hasPrefix("=")
                ? Normalizer.accentedTokens(String(form.dropFirst()))
                : Normalizer.tokens(form).map { Normalizer.guardFold($0.original) }
            if tokens.isEmpty { tokens = Normalizer.pictographs(form) }
            guard !form.isEmpty, !tokens.isEmpty else { return nil }
            variants.append(tokens)
        }
        return (forms, variants)
    }

    /// `held.txt`: `category<TAB>NAME` rows take the words of that category of `registers.txt`
    /// (`registerRows`), `except<TAB>WORD` rows leave one of them out, `word<TAB>ENTRY` rows add an
    /// entry written as a disqualifier's, `stem<TAB>LETTERS` rows a part of a word. Each word,
    /// entry or stem becomes one rule, its id `H` and the line number in `held.txt` (`H21`), never
    /// shown with its text.
    /// - Throws: `WhitelistError.malformed` for an unknown kind or category, an empty entry, a stem
    ///   of fewer than 4 letters, or an `except` word no taken category holds.
    private static func heldRules(_ text: String, registerRows: [(category: String, word: String)])
        throws(WhitelistError) -> (words: [Disqualifier], stems: [Disqualifier])
    {
        var rules: [Disqualifier] = []
        var stems: [Disqualifier] = []
        var categories: [(name: String, line: Int)] = []
        var exceptions: [(word: String, line: Int)] = []
        for (k, line) in lines(text).enumerated() {
            let row = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if row.isEmpty || row.hasPrefix("#") { continue }
            let f = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 2, !f[1].isEmpty else { throw .malformed(file: "held.txt", line: k + 1) }
            switch f[0] {
            case "category":
                guard registerRows.contains(where: { $0.category == f[1] }) else { throw .malformed(file: "held.txt", line: k + 1) }
                categories.append((f[1], k + 1))
            case "except":
                exceptions.append((f[1], k + 1))
            case "word":
                guard let (forms, variants) = entry(f[1]) else { throw .malformed(file: "held.txt", line: k + 1) }
                rules.append(Disqualifier(id: "H\(k + 1)", text: forms[0], tokens: variants[0], variants: variants))
            case "stem":
                let letters = Normalizer.guardFold(f[1])
                guard letters.count >= 4, letters.allSatisfy(\.isLetter) else { throw .malformed(file: "held.txt", line: k + 1) }
                stems.append(Disqualifier(id: "H\(k + 1)", text: f[1], tokens: [letters]))
            default:
                throw .malformed(file: "held.txt", line: k + 1)
            }
        }
        let lineOf = Dictionary(categories.map { ($0.name, $0.line) }, uniquingKeysWith: { a, _ in a })
        let taken = registerRows.filter { lineOf[$0.category] != nil }
        for e in exceptions where !taken.contains(where: { $0.word == e.word }) {
            throw .malformed(file: "held.txt", line: e.line)
        }
        for r in taken where !exceptions.contains(where: { $0.word == r.word }) {
            let tokens = Normalizer.tokens(r.word).map { Normalizer.guardFold($0.original) }
            if !tokens.isEmpty { rules.append(Disqualifier(id: "H\(lineOf[r.category]!)", text: r.word, tokens: tokens)) }
        }
        return (rules, stems)
    }

    /// Lines split on the line feed scalar (a CRLF file stays one row per line).
    private static func lines(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
    }

    /// The rules shipped with this build (`Whitelists/` embedded at build time; a test checks the
    /// embedded copy is byte-identical to the files).
    /// The bundled `Whitelists/registers.txt`, as written (for the validator's `registre` step).
    public static var bundledRegisters: String { WhitelistFiles.registers }

    /// The canonical phrases of the forms, each once, in file order, with their grammar and name
    /// slot.
    public var canonicalPhrases: [(phrase: String, grammar: PhraseGrammar, slot: NameSlot)] {
        var seen = Set<String>()
        return forms.compactMap { f in seen.insert(f.phrase).inserted ? (f.phrase, f.grammar, f.slot) : nil }
    }

    public static let bundled: Whitelist = {
        do {
            return try Whitelist(
                moments: WhitelistFiles.moments, disqualifiers: WhitelistFiles.disqualifiers,
                registers: WhitelistFiles.registers, parents: WhitelistFiles.parents,
                givenNames: WhitelistFiles.givenNames, held: WhitelistFiles.held)
        } catch {
            fatalError("the embedded whitelist is malformed: \(error)")
        }
    }()
}

/// A malformed whitelist file.
public enum WhitelistError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformed(file: String, line: Int)
    case duplicateID(file: String, id: String)

    public var description: String {
        switch self {
        case .malformed(let file, let line):
            return "Whitelists/\(file):\(line): malformed row (see the header line for the columns)"
        case .duplicateID(let file, let id):
            return "Whitelists/\(file): rule id \(id) is used twice"
        }
    }
}
