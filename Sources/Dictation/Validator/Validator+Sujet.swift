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
        let kinds = self.kinds.fittingKinds(of: moment.phrase).union(self.kinds.kinds(of: moment.phrase).filter { topics[$0] != nil })
        var words = kinds.reduce(into: Set<String>()) { $0.formUnion(topics[$1] ?? []) }
        let phrase = Tokenizer.tokenize(moment.phrase).tokens.filter { $0.kind == .word }.map(\.normalized)
        words.subtract(phrase)
        return words
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
    ])

    /// Rules `moment_sujet` (a text about a whitelist moment uses words of its kinds besides the
    /// phrase: one in CP and CE1, two different ones from CE2; `MomentTopics.words(for:)`) and
    /// `moment_famille` (no relative of `relatives` unless the moment's phrase names it; "le père
    /// Noël" is not a father).
    func subjectFindings(_ a: TextAnalysis, _ plan: DictationPlan) -> [Finding] {
        var out: [Finding] = []
        let t = a.tagged
        let phraseWords = Set(phraseWords(plan.moment.phrase))
        for (k, tok) in t.enumerated() where tok.token.kind == .word {
            let forms = Set([tok.normalized] + tok.entries.map { Tokenizer.normalize($0.lemma) })
            guard !forms.isDisjoint(with: Self.relatives), phraseWords.isDisjoint(with: forms) else { continue }
            if ["père", "mère"].contains(tok.normalized), k + 1 < t.count, ["noël", "noel"].contains(t[k + 1].normalized) { continue }
            // "une barbe à papa" is a sweet.
            if tok.normalized == "papa", k >= 2, t[k - 1].normalized == "à", t[k - 2].normalized == "barbe" { continue }
            out.append(Finding(step: .moment, rule: "moment_famille", message:
                "N'écris pas « \(shown(tok.token.text)) » : la famille de l'enfant n'est pas connue ; parle de ses copains, de sa classe ou de « sa famille »."))
            break
        }
        guard let topics = MomentTopics.bundled?.words(for: plan.moment), !topics.isEmpty else { return out }
        var found = Set<String>()
        for tok in t where tok.token.kind == .word && !phraseWords.contains(tok.normalized) {
            let forms = Set([tok.normalized] + tok.entries.map { Tokenizer.normalize($0.lemma) })
            if let hit = forms.intersection(topics).sorted().first { found.insert(hit) }
        }
        let needed = [.cp, .ce1].contains(plan.grade) ? 1 : 2
        if found.count < needed {
            // Examples: the first words of each of the moment's kinds, the most specific kind
            // (the shortest list) first.
            let lists = (MomentTopics.bundled.map { t in t.kinds.fittingKinds(of: plan.moment.phrase).compactMap { t.topics[$0] } } ?? [])
                .sorted { $0.count < $1.count }
            var examples: [String] = []
            for list in lists { for w in list.filter(topics.contains).prefix(3) where !examples.contains(w) { examples.append(w) } }
            let shown = examples.prefix(6).joined(separator: ", ")
            out.append(Finding(step: .moment, rule: "moment_sujet", message:
                "Le texte doit raconter ce qu'on fait pendant le moment « \(plan.moment.phrase) », pas seulement le nommer : emploie des mots comme \(shown)."))
        }
        return out
    }
}
