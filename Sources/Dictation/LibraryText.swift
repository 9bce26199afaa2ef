import DicteeCore
import Foundation

/// Why the handwritten library could not be read or a text could not be rendered.
///
/// Messages are lower case and name the file and line (`ce2.txt:14: ...`); they never contain a
/// child's name or a moment phrase (Docs/style.md, Errors and diagnostics).
public enum LibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `skills:` names an id that is not a ``SkillID``.
    case unknownSkill(String, file: String, line: Int)
    /// `grade:` is not CP, CE1, CE2, CM1 or CM2.
    case unknownGrade(String, file: String, line: Int)
    /// A `{...}` mark that the renderer does not know, or with the wrong number of alternatives.
    case unknownMark(String, file: String, line: Int)
    /// A `{` without its `}`, a `}` without its `{`, or a `{` inside a mark.
    case unbalancedBrace(file: String, line: Int)
    /// Two texts with the same id (in one file or across the files of the library).
    case duplicateID(String, file: String, line: Int)
    /// A skill whose teaching starts after the text's grade (``SkillID/isTaught(at:)``).
    case skillNotTaught(SkillID, Grade, file: String, line: Int)
    /// A block without `grade:`, `skills:`, `fits:` or template lines, or with one twice.
    case missingField(String, file: String, line: Int)
    /// A header line given twice in one block.
    case duplicateField(String, file: String, line: Int)
    /// A line outside any block, or a malformed block header.
    case unexpectedLine(file: String, line: Int)
    /// A `fits:` kind that no phrase of `moment-kinds.tsv` has (and not `general`).
    case unknownKind(String, file: String, line: Int)
    /// `time:` is not past, coming or any (or `ends:` not yes or no).
    case unknownTime(String, file: String, line: Int)
    /// A malformed line of `moment-kinds.tsv`, or a phrase listed twice.
    case malformedKinds(file: String, line: Int)
    /// A bundled resource file is missing or not UTF-8.
    case missingResource(String)
    /// The moment phrase does not start with le, la, l' or les, so à/de/ce cannot be formed.
    case momentWithoutArticle
    /// The first name is empty.
    case emptyFirstName
    /// The template names the moment's day (`{quand}`, `{jour}`) and no date was given.
    case noDate

    public var description: String {
        switch self {
        case .unknownSkill(let id, let file, let line):
            "\(file):\(line): unknown skill '\(id)' (see Docs/trap-sites.md)"
        case .unknownGrade(let g, let file, let line):
            "\(file):\(line): unknown grade '\(g)'; use CP, CE1, CE2, CM1 or CM2"
        case .unknownMark(let m, let file, let line):
            "\(file):\(line): unknown mark '{\(m)}' (see Docs/library-format.md)"
        case .unbalancedBrace(let file, let line):
            "\(file):\(line): unbalanced brace in the template"
        case .duplicateID(let id, let file, let line):
            "\(file):\(line): duplicate text id '\(id)'"
        case .skillNotTaught(let skill, let grade, let file, let line):
            "\(file):\(line): skill '\(skill.rawValue)' is taught from \(skill.introducedIn.rawValue) on, not in \(grade.rawValue)"
        case .missingField(let field, let file, let line):
            "\(file):\(line): the text has no '\(field)'"
        case .duplicateField(let field, let file, let line):
            "\(file):\(line): '\(field)' is given twice"
        case .unexpectedLine(let file, let line):
            "\(file):\(line): expected '=== id' to start a text"
        case .unknownKind(let kind, let file, let line):
            "\(file):\(line): no phrase of moment-kinds.tsv has the kind '\(kind)'"
        case .unknownTime(let value, let file, let line):
            "\(file):\(line): unknown value '\(value)'; time: is past, coming or any, ends: is yes or no"
        case .malformedKinds(let file, let line):
            "\(file):\(line): expected 'phrase<TAB>kind,kind' with a phrase listed once"
        case .missingResource(let name):
            "the library resource '\(name)' is missing or not UTF-8"
        case .momentWithoutArticle:
            "the moment phrase does not start with le, la, l' or les"
        case .emptyFirstName:
            "the first name is empty"
        case .noDate:
            "the text names the moment's day and no date was given"
        }
    }
}

/// When a library text tells its moment (`time:` in the library files).
public enum TextTime: String, Sendable, Hashable, CaseIterable {
    /// After it: the passé composé, the imparfait... ("{Quand}, {Prenom} est allé{e} {à moment}.").
    case past
    /// Before it: the futur, or a plan in the présent ("{Quand}, {Prenom} ira {à moment}.").
    case coming
    /// Either: no verb places the moment in time ("{Prenom} aime beaucoup {moment}.").
    case any

    /// Whether a text told this way may be served about a moment at `time`.
    public func suits(_ time: MomentTime) -> Bool {
        switch (self, time) {
        case (.any, _), (.past, .past), (.coming, .upcoming): true
        default: false
        }
    }
}

/// One handwritten dictation of the fallback library: a template in which the child's name,
/// the child's gender agreements and the moment are marks (`Docs/library-format.md`).
///
/// Served when the language model fails (Docs/style.md, Guided generation: after 5 attempts). Each
/// text is written for one grade, trains the skills it lists (at least 3 trap sites each per
/// `Docs/trap-sites.md`, for every rendering), and makes sense with every moment phrase of its
/// kinds (`moment-kinds.tsv`).
public struct LibraryText: Sendable, Hashable {
    /// Stable id, e.g. `ce2-sortie-01`.
    public let id: String
    /// The grade the text is written for (length, tenses, vocabulary of Docs/domain.md §2-3).
    public let grade: Grade
    /// The skills the text trains, in the order written.
    public let skills: [SkillID]
    /// The moment kinds the text makes sense with (`fits:`), e.g. `sortie`, `fete`.
    public let kinds: Set<String>
    /// When the text tells the moment (`time:`): after it, before it, or either.
    public let time: TextTime
    /// Whether the text tells the moment's end (`ends: yes`: coming back from holidays): never
    /// served while a moment of several days is going on.
    public let tellsEnd: Bool
    /// The template as written, lines joined with one space.
    public let template: String
    private let segments: [Segment]

    /// A piece of a parsed template.
    enum Segment: Sendable, Hashable {
        case literal(String)
        case firstName
        /// `{de Prenom}`, `{que Prenom}`: the word, elided before a vowel or a mute h.
        case elidingFirstName(String)
        /// `{e}` and `{g:masc|fem}`.
        case gender(masculine: String, feminine: String)
        /// `{moment}`, `{à moment}`, `{de moment}`, `{ce moment}` and their capitalised forms.
        case moment(MomentForm, capitalized: Bool)
        /// `{M:ms|fs|mp|fp}`.
        case momentAgreement([String])
        /// `{quand}`, `{Quand}`: ``MomentDate/dayPhrase``.
        case day(capitalized: Bool)
        /// `{jour}`: ``MomentDate/weekday``.
        case weekday
    }

    /// Whether the template names the moment's day (`{quand}`, `{jour}`).
    public var namesDay: Bool { segments.contains { if case .day = $0 { true } else if case .weekday = $0 { true } else { false } } }

    enum MomentForm: Sendable, Hashable { case plain, a, de, demonstrative }

    /// A text from its parts; the template's marks are checked here.
    /// - Parameters:
    ///   - file: the file name for error messages; `line`: the template's first line.
    /// - Throws: `LibraryError.unknownMark` or `.unbalancedBrace`.
    public init(id: String, grade: Grade, skills: [SkillID], kinds: Set<String>, time: TextTime = .any, tellsEnd: Bool = false,
                template: String, file: String = "<text>", line: Int = 1) throws(LibraryError) {
        self.id = id
        self.grade = grade
        self.skills = skills
        self.kinds = kinds
        self.time = time
        self.tellsEnd = tellsEnd
        self.template = template
        self.segments = try Self.parse(template, file: file, line: line)
    }

    /// Whether the text makes sense with a moment of these kinds (they share one).
    public func fits(_ kinds: Set<String>) -> Bool { !self.kinds.isDisjoint(with: kinds) }

    /// The dictation for one child and one moment.
    /// - Parameters:
    ///   - firstName: the child's first name as the parent typed it (`Léa`, `Inès`).
    ///   - gender: the child's gender, for `{e}` and `{g:…}` agreements.
    ///   - moment: the canonical phrase with its article, with a friend's name or not
    ///     ("la sortie piscine", "l'anniversaire de Tom").
    ///   - date: when the moment is, for `{quand}` and `{jour}` (`nil` for a text that names no day).
    /// - Returns: the text with every mark replaced; it contains no brace.
    /// - Throws: `LibraryError.emptyFirstName`, `.noDate` for a day mark without `date`, or
    ///   `.momentWithoutArticle` when the template needs à/de/ce forms of a phrase that has no
    ///   article (a parent's own label).
    /// - Warning: the result contains the child's first name: never log it.
    public func render(firstName: String, gender: Gender, moment: MomentPhrase, date: MomentDate? = nil) throws -> String {
        let name = firstName.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw LibraryError.emptyFirstName }
        var phrase = moment
        phrase.phrase = moment.phrase.replacingOccurrences(of: "’", with: "'")
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let s): out += s
            case .firstName: out += name
            case .elidingFirstName(let word): out += Self.elides(before: name) ? "\(word)'\(name)" : "\(word)e \(name)"
            case .gender(let m, let f): out += gender == .feminine ? f : m
            case .moment(let form, let capitalized):
                let s: String
                switch form {
                case .plain: s = phrase.phrase
                case .a, .de, .demonstrative:
                    guard !phrase.article.isEmpty else { throw LibraryError.momentWithoutArticle }
                    switch form {
                    case .a: s = phrase.contracted(with: .a)
                    case .de: s = phrase.contracted(with: .de)
                    default: s = phrase.demonstrative
                    }
                }
                out += capitalized ? s.prefix(1).uppercased() + s.dropFirst() : s
            case .momentAgreement(let forms):
                let g = phrase.grammar
                out += forms[(g.gender == .feminine ? 1 : 0) + (g.number == .plural ? 2 : 0)]
            case .day(let capitalized):
                guard let date else { throw LibraryError.noDate }
                // A story in the passé simple is not anchored to the writing day: "Samedi 28
                // novembre, il partit", never "Hier, il partit".
                let s = skills.contains(.passeSimple3ePersonne) ? date.narrativeDayPhrase : date.dayPhrase
                out += capitalized ? s.prefix(1).uppercased() + s.dropFirst() : s
            case .weekday:
                guard let date else { throw LibraryError.noDate }
                out += date.weekday
            }
        }
        return out
    }

    /// Whether `de`/`que` elide before a first name: a vowel (accents ignored) or an h, which is
    /// taken as mute (d'Hugo, d'Hélène, as `PrivacyFilter.render` does for friends' names); a `y`
    /// elides before a consonant only (d'Yves, de Yanis).
    public static func elides(before name: String) -> Bool {
        let letters = Array(name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased())
        guard let first = letters.first else { return false }
        if "aeiouhœæ".contains(first) { return true }
        if first == "y", letters.count > 1 { return !"aeiouy".contains(letters[1]) }
        return false
    }

    // MARK: template parsing

    static func parse(_ template: String, file: String, line: Int) throws(LibraryError) -> [Segment] {
        var segments: [Segment] = []
        var literal = ""
        var mark: String?
        for c in template {
            if var m = mark {
                if c == "{" { throw .unbalancedBrace(file: file, line: line) }
                if c == "}" {
                    if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
                    segments.append(try segment(m, file: file, line: line))
                    mark = nil
                } else {
                    m.append(c)
                    mark = m
                }
            } else if c == "{" {
                mark = ""
            } else if c == "}" {
                throw .unbalancedBrace(file: file, line: line)
            } else {
                literal.append(c)
            }
        }
        if mark != nil { throw .unbalancedBrace(file: file, line: line) }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    static func segment(_ mark: String, file: String, line: Int) throws(LibraryError) -> Segment {
        switch mark {
        case "Prenom": return .firstName
        case "de Prenom": return .elidingFirstName("d")
        case "que Prenom": return .elidingFirstName("qu")
        case "e": return .gender(masculine: "", feminine: "e")
        case "moment": return .moment(.plain, capitalized: false)
        case "Moment": return .moment(.plain, capitalized: true)
        case "à moment": return .moment(.a, capitalized: false)
        case "À moment": return .moment(.a, capitalized: true)
        case "de moment": return .moment(.de, capitalized: false)
        case "De moment": return .moment(.de, capitalized: true)
        case "ce moment": return .moment(.demonstrative, capitalized: false)
        case "Ce moment": return .moment(.demonstrative, capitalized: true)
        case "quand": return .day(capitalized: false)
        case "Quand": return .day(capitalized: true)
        case "jour": return .weekday
        default: break
        }
        if mark.hasPrefix("g:") {
            let forms = mark.dropFirst(2).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if forms.count == 2 { return .gender(masculine: forms[0], feminine: forms[1]) }
        }
        if mark.hasPrefix("M:") {
            let forms = mark.dropFirst(2).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if forms.count == 4 { return .momentAgreement(forms) }
        }
        throw .unknownMark(mark, file: file, line: line)
    }
}

/// The handwritten library: every text of `Resources/library/*.txt`, and the kinds of the
/// whitelist's canonical phrases (`Resources/moment-kinds.tsv`). Format: `Docs/library-format.md`.
public struct Library: Sendable {
    /// Every text, in file order (CP to CM2).
    public var texts: [LibraryText]
    /// Canonical phrase without a friend's name (`l'anniversaire`) → its kinds.
    public var phraseKinds: [String: Set<String>]
    /// Kind → the lemmas a text about a moment of that kind uses, in the file's order
    /// (`kind-topics.tsv`); kinds
    /// without a list (activite, sortie, general) are not here.
    public var topics: [String: [String]]

    /// The files of the bundled library, one per grade.
    public static let files = ["cp.txt", "ce1.txt", "ce2.txt", "cm1.txt", "cm2.txt"]

    /// A library from texts and phrase kinds.
    public init(texts: [LibraryText], phraseKinds: [String: Set<String>] = [:], topics: [String: [String]] = [:]) {
        self.texts = texts
        self.phraseKinds = phraseKinds
        self.topics = topics
    }

    /// Parses one library file.
    /// - Parameters:
    ///   - text: the file's contents; `file`: its name, for error messages.
    /// - Throws: `LibraryError` naming the file and line of the first problem.
    public init(parsing text: String, file: String) throws(LibraryError) {
        var texts: [LibraryText] = []
        var ids = Set<String>()
        var block: Block?

        func finish(_ b: Block) throws(LibraryError) {
            guard let grade = b.grade else { throw .missingField("grade", file: file, line: b.line) }
            guard let skills = b.skills else { throw .missingField("skills", file: file, line: b.line) }
            guard let kinds = b.kinds else { throw .missingField("fits", file: file, line: b.line) }
            guard let time = b.time else { throw .missingField("time", file: file, line: b.line) }
            guard !b.template.isEmpty, let templateLine = b.templateLine else {
                throw .missingField("template", file: file, line: b.line)
            }
            for (skill, line) in skills where !skill.isTaught(at: grade) {
                throw .skillNotTaught(skill, grade, file: file, line: line)
            }
            texts.append(try LibraryText(id: b.id, grade: grade, skills: skills.map(\.0), kinds: kinds, time: time, tellsEnd: b.ends ?? false,
                                         template: b.template.joined(separator: " "), file: file, line: templateLine))
        }

        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("===") {
                if let b = block { try finish(b) }
                let id = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                guard !id.isEmpty, !id.contains(where: \.isWhitespace) else { throw .unexpectedLine(file: file, line: number) }
                guard ids.insert(id).inserted else { throw .duplicateID(id, file: file, line: number) }
                block = Block(id: id, line: number)
                continue
            }
            guard var b = block else { throw .unexpectedLine(file: file, line: number) }
            if b.template.isEmpty, let colon = line.firstIndex(of: ":"),
               let field = Field(rawValue: String(line[..<colon]).trimmingCharacters(in: .whitespaces)) {
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                switch field {
                case .grade:
                    guard b.grade == nil else { throw .duplicateField("grade", file: file, line: number) }
                    guard let g = Grade(parsing: value) else { throw .unknownGrade(value, file: file, line: number) }
                    b.grade = g
                case .skills:
                    guard b.skills == nil else { throw .duplicateField("skills", file: file, line: number) }
                    var skills: [(SkillID, Int)] = []
                    for item in items {
                        guard let s = SkillID(rawValue: item) else { throw .unknownSkill(item, file: file, line: number) }
                        if !skills.contains(where: { $0.0 == s }) { skills.append((s, number)) }
                    }
                    guard !skills.isEmpty else { throw .missingField("skills", file: file, line: number) }
                    b.skills = skills
                case .fits:
                    guard b.kinds == nil else { throw .duplicateField("fits", file: file, line: number) }
                    guard !items.isEmpty else { throw .missingField("fits", file: file, line: number) }
                    b.kinds = Set(items)
                case .time:
                    guard b.time == nil else { throw .duplicateField("time", file: file, line: number) }
                    guard let t = TextTime(rawValue: value) else { throw .unknownTime(value, file: file, line: number) }
                    b.time = t
                case .ends:
                    guard b.ends == nil else { throw .duplicateField("ends", file: file, line: number) }
                    guard ["yes", "no"].contains(value) else { throw .unknownTime(value, file: file, line: number) }
                    b.ends = value == "yes"
                }
                block = b
                continue
            }
            if b.template.isEmpty { b.templateLine = number }
            // Marks are checked per line, so that an error names the right line.
            _ = try LibraryText.parse(line, file: file, line: number)
            b.template.append(line)
            block = b
        }
        if let b = block { try finish(b) }
        self.texts = texts
        self.phraseKinds = [:]
        self.topics = [:]
    }

    private enum Field: String { case grade, skills, fits, time, ends }

    private struct Block {
        var id: String
        var line: Int
        var grade: Grade?
        var skills: [(SkillID, Int)]?
        var kinds: Set<String>?
        var time: TextTime?
        var ends: Bool?
        var template: [String] = []
        var templateLine: Int?
    }

    /// Parses `moment-kinds.tsv`: `phrase<TAB>kind,kind` lines, `#` comments, an optional
    /// `phrase<TAB>kinds` header.
    /// - Throws: `LibraryError.malformedKinds` naming the line.
    public static func parseKinds(_ text: String, file: String) throws(LibraryError) -> [String: Set<String>] {
        var kinds: [String: Set<String>] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw)
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") || line == "phrase\tkinds" { continue }
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            let list = parts.count == 2 ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : []
            let phrase = parts[0].trimmingCharacters(in: .whitespaces)
            guard parts.count == 2, !phrase.isEmpty, !list.isEmpty, kinds[phrase] == nil else {
                throw .malformedKinds(file: file, line: index + 1)
            }
            kinds[phrase] = Set(list)
        }
        return kinds
    }

    /// The "!" kinds of `moment-kinds.tsv` (a phrase's own kinds), stripped of their mark: the
    /// only kinds whose texts fit the phrase (`fittingKinds(of:)`).
    public static func ownKinds(_ kinds: Set<String>) -> Set<String> {
        Set(kinds.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) })
    }

    /// The library shipped in the `Dictation` module's resources: the five grade files and
    /// `moment-kinds.tsv`.
    /// - Parameters:
    ///   - directory: read the grade files from this folder instead (a library being written:
    ///     `dictee library check --dir`); `moment-kinds.tsv` stays the bundled one.
    ///   - grades: read only these grades' files (`nil`: all five).
    /// - Throws: `LibraryError` for a missing file, a parse error, an id used twice across
    ///   files, or a `fits:` kind that no phrase has.
    public static func bundled(directory: URL? = nil, grades: Set<Grade>? = nil) throws -> Library {
        func read(_ name: String, _ ext: String, _ subdirectory: String) throws -> String {
            guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: subdirectory),
                  let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
                throw LibraryError.missingResource("\(subdirectory)/\(name).\(ext)")
            }
            return text
        }
        let kinds = try parseKinds(try read("moment-kinds", "tsv", "Resources"), file: "moment-kinds.tsv")
        let topics = try MomentTopics.parseTopics(try read("kind-topics", "tsv", "Resources"), file: "kind-topics.tsv")
        let known = kinds.values.reduce(into: Set<String>()) { $0.formUnion($1.map { $0.hasPrefix("!") ? String($0.dropFirst()) : $0 }) }.union([generalKind])
        var texts: [LibraryText] = []
        var ids = Set<String>()
        for file in files {
            let name = String(file.dropLast(4))
            if let grades, !grades.contains(where: { $0.rawValue.lowercased() == name }) { continue }
            let source: String
            if let directory {
                guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else {
                    throw LibraryError.missingResource(directory.appendingPathComponent(file).path)
                }
                source = text
            } else {
                source = try read(name, "txt", "Resources/library")
            }
            let library = try Library(parsing: source, file: file)
            for t in library.texts {
                // The line is looked up only for an error: finding it splits the whole file.
                guard ids.insert(t.id).inserted else {
                    throw LibraryError.duplicateID(t.id, file: file, line: Self.line(of: t.id, in: source))
                }
                if let kind = t.kinds.sorted().first(where: { !known.contains($0) }) {
                    throw LibraryError.unknownKind(kind, file: file, line: Self.line(of: t.id, in: source))
                }
            }
            texts += library.texts
        }
        return Library(texts: texts, phraseKinds: kinds, topics: topics)
    }

    static func line(of id: String, in source: String) -> Int {
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        return (lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "=== \(id)" } ?? 0) + 1
    }

    /// The kinds of a moment phrase. The base phrase without a friend's name decides:
    /// "l'anniversaire de Tom" and "l'anniversaire" have the same kinds.
    /// - Returns: the empty set for a phrase that is not in `moment-kinds.tsv` (a parent's label).
    public func kinds(of phrase: String) -> Set<String> {
        let p = phrase.replacingOccurrences(of: "’", with: "'").trimmingCharacters(in: .whitespaces).lowercased()
        var best: (length: Int, kinds: Set<String>)?
        for (base, kinds) in phraseKinds {
            let b = base.lowercased()
            let matches = p == b || p.hasPrefix(b + " de ") || p.hasPrefix(b + " d'") || p.hasPrefix(b + " chez ")
            if matches, b.count > (best?.length ?? -1) { best = (b.count, kinds) }
        }
        return best?.kinds ?? []
    }

    /// The kinds a text about a canonical phrase must share: the phrase's kinds that have words
    /// of their own (`topics`: eau for "la sortie piscine", sport for "le cours de judo"), else
    /// all its kinds ("la sortie", "la bibliothèque"). So a text that may say nothing of the
    /// activity (`activite`, `sortie`) serves only the phrases that have nothing more specific,
    /// and the validator's `moment_sujet` rule, which asks for those words, agrees with the
    /// library's choice.
    public func fittingKinds(of phrase: String) -> Set<String> {
        let own = Library.ownKinds(kinds(of: phrase))
        if !own.isEmpty { return own }
        let listed = kinds(of: phrase)
        let specific = listed.filter { topics[$0] != nil }
        return specific.isEmpty ? listed : specific
    }

    /// The texts of a grade that fit a canonical phrase of the whitelist (with or without a
    /// friend's name), by `fittingKinds(of:)`.
    public func texts(for grade: Grade, fitting phrase: String) -> [LibraryText] {
        let k = fittingKinds(of: phrase)
        return texts.filter { $0.grade == grade && $0.fits(k) }
    }

    /// The kind that fits any moment phrase with its article: texts that speak of the moment
    /// through `{moment}`, `{à moment}`, `{de moment}`, `{ce moment}` and `{M:…}` only, without
    /// assuming what it is (Docs/library-format.md, "Moment kinds").
    public static let generalKind = "general"

    /// The kinds of a moment:
    /// - a parent's label (`moment.kind` set, `LabelPhrase`): its kind and `general`;
    /// - a canonical phrase of the whitelist: `fittingKinds(of:)`, its kinds in
    ///   `moment-kinds.tsv` that have words of their own, else all of them (`general` is not
    ///   added, so whitelist moments keep the texts proven for them);
    /// - any other phrase (a label stored before labels had kinds): `general` only.
    public func kinds(of moment: MomentPhrase) -> Set<String> {
        if let kind = moment.kind { return [kind, Self.generalKind] }
        let listed = fittingKinds(of: moment.phrase)
        return listed.isEmpty ? [Self.generalKind] : listed
    }

    /// The texts of a grade that fit a moment, by `kinds(of:)` for a `MomentPhrase`: a label's
    /// kind and `general`, a whitelist phrase's kinds.
    public func texts(for grade: Grade, fitting moment: MomentPhrase) -> [LibraryText] {
        let k = kinds(of: moment)
        return texts.filter { $0.grade == grade && $0.fits(k) }
    }

    /// `knownKinds` of the bundled `moment-kinds.tsv` (empty only when the resource is missing,
    /// which the library's tests rule out).
    public static let bundledKinds: [String] = (try? Library.bundled(grades: []))?.knownKinds ?? []

    /// Every kind a text may fit and a label may take: the kinds of `moment-kinds.tsv` and
    /// `general`, sorted.
    public var knownKinds: [String] {
        (phraseKinds.values.reduce(into: Set<String>()) { $0.formUnion($1.map { $0.hasPrefix("!") ? String($0.dropFirst()) : $0 }) }
            .union([Self.generalKind])).sorted()
    }
}
