import DicteeCore
import Foundation
import French

// Step 4, registre: forbidden registers (Whitelists/registers.txt).

extension Validator {
    /// Homographs of `registers.txt` that only count as nouns ("la tombe", not "la neige tombe").
    static let nounOnlyRegisterWords: Set<String> = ["tombe", "tombes", "dispute", "disputes"]

    /// Innocent uses of register words (`Whitelists/registers.txt`), by lemma: a word of the
    /// list is not counted when one of these words stands within three words after it ("frapper
    /// la balle", "frapper des mains", "frapper à la porte") or just before it ("pieds nus", "tête
    /// nue"). A tennis lesson hits the ball; a judo lesson is done barefoot.
    static let innocentRegisterUses: [String: (after: Set<String>, before: Set<String>)] = [
        "frapper": (after: ["balle", "balles", "ballon", "ballons", "volant", "mains", "porte", "tambour", "tambours", "gong", "cymbales", "palet"], before: []),
        "nu": (after: [], before: ["pieds", "pied", "tête", "mains", "bras", "jambes"]),
    ]

    /// Whether token `k` of `tagged`, a word of lemma `lemma` in the registers, is used innocently
    /// (`innocentRegisterUses`).
    static func isInnocentUse(_ tagged: [TaggedToken], _ k: Int, lemma: String) -> Bool {
        guard let use = innocentRegisterUses[lemma] else { return false }
        let words = tagged.indices.filter { tagged[$0].token.kind == .word }
        guard let n = words.firstIndex(of: k) else { return false }
        let after = words[(n + 1)..<min(words.count, n + 4)].map { tagged[$0].normalized }
        let before = n > 0 ? tagged[words[n - 1]].normalized : ""
        return after.contains(where: use.after.contains) || use.before.contains(before)
    }

    /// The forbidden-register words of a text: whole tokens or lemmas, never substrings.
    /// - Parameters:
    ///   - a: the analysed text; its `names` are never register words.
    /// - Returns: the offending tokens as written, each once, in text order; empty when none.
    public func registerWords(in a: TextAnalysis) -> [String] {
        var found: [String] = []
        let names = a.names
        for (k, t) in a.tagged.enumerated() where t.token.kind == .word && !names.contains(t.normalized) {
            let w = t.normalized
            let lemmas = Set([w] + t.entries.map(\.lemma))
            if lemmas.contains(where: { Validator.innocentRegisterUses[$0] != nil && Validator.isInnocentUse(a.tagged, k, lemma: $0) }) { continue }
            // Every reading counts, whatever the tagger chose (a capitalised "Tue" mid-sentence is
            // still tuer), except the noun-only homographs: "la neige tombe" is not "une tombe".
            // Lemmas of the readings that fit the word's role ("la fumée" is not fumer; "l'équipe
            // attaque" is); every reading when the role is unknown (a capitalised "Tue").
            let rows: [LexicalEntry]
            switch t.wordClass {
            case .noun: rows = t.entries.filter { $0.partOfSpeech == .noun }
            case .adjective: rows = t.entries.filter { $0.partOfSpeech == .adjective || $0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .par } }
            // A participle after its auxiliary is read as a participle only: "elle s'est tue" is
            // taire (tuer's participle is "tué").
            case .pastParticiple: rows = t.entries.filter { $0.partOfSpeech.isVerb && $0.verbForms.contains { $0.mood == .par && $0.tense == .pas } }
            case .finiteVerb, .infinitive, .presentParticiple: rows = t.entries.filter { $0.partOfSpeech.isVerb }
            default: rows = t.entries
            }
            var hit = (rows.isEmpty ? t.entries : rows).contains { registers.contains($0.lemma) && !Validator.nounOnlyRegisterWords.contains($0.lemma) }
            if registers.contains(w) {
                hit = hit || !Validator.nounOnlyRegisterWords.contains(w) || t.wordClass == .noun
                    || !t.entries.contains { $0.partOfSpeech.isVerb }
            } else if t.entries.contains(where: { Validator.nounOnlyRegisterWords.contains($0.lemma) && $0.partOfSpeech == .noun }) {
                hit = hit || t.wordClass == .noun
            }
            // Hyphenated compounds: any part ("va-t-en-guerre", "Tue-le").
            // Parts of a hyphenated word only when it is not a dictionary word ("Tue-le", not
            // "à tue-tête" or "sang-froid").
            if !hit, w.utf8.contains(UInt8(ascii: "-")), spelling.analyze(w).isEmpty {
                hit = w.split(separator: "-").contains { part in
                    let p = String(part)
                    return (registers.contains(p) && !Validator.nounOnlyRegisterWords.contains(p))
                        || lexicon.entries(for: p).contains { registers.contains($0.lemma) && !Validator.nounOnlyRegisterWords.contains($0.lemma) }
                }
            }
            if hit, !found.contains(t.token.text) { found.append(t.token.text) }
        }
        return found
    }

    func registre(_ a: TextAnalysis, _ draft: Draft) -> [Finding] {
        var found = registerWords(in: a)
        if let title = draft.title {
            for w in registerWords(in: TextAnalysis(title, lexicon: lexicon)) where !found.contains(w) { found.append(w) }
        }
        guard !found.isEmpty else { return [] }
        return [Finding(step: .registre, message:
            "Un texte pour un enfant n'emploie pas \(found.count > 1 ? "ces mots" : "ce mot") : \(found.map { "« \($0) »" }.joined(separator: ", ")) ; parle d'autre chose.")]
    }
}
