import DicteeCore
import Foundation
import French

/// Which trap sites of a text the parent grades: the ones worth a look, not every place a child
/// could slip (issue 13: on a CE2 text, 10 of 18 sites were capitals and full stops).
///
/// - **Skills**: at most ``Planner/maximumTargets`` (3), the planner's targets the text exercises
///   first, then the skills the text was written for (a library text's `skills:`). A skill that is
///   a target keeps its sites: the child's own participles ("Léa est allée", `accord_pp_etre`)
///   are graded when that skill is a target.
/// - **How many**: per skill at most the plan's density (trap sites per sentence, the value the
///   plan recorded, `DictationRecord.density`) × the text's sentences, rounded down, at least 1.
/// - **Which**: spread over the text: when a skill has more sites than allowed, the kept ones are
///   evenly spaced along its sites in text order (the first, the last and between), taken among
///   the first site of each different word when there are enough of them (a name three times is
///   one capital to learn).
///
/// Sentence-final punctuation is never a site (`TrapAnalyzer`, Docs/trap-sites.md): the
/// `majuscule_ponctuation` sites are the sentence starts, the proper nouns and the day and month
/// names that stay lower case.
public enum SiteSelection {
    /// The sites to grade, in text order (the order the parent numbers them).
    /// - Parameters:
    ///   - all: every trap site of the text (`Validator.sites(of:plan:)`), sorted by `start`.
    ///   - targets: the skills in order of preference (the planner's targets, then the text's);
    ///     repeated skills count once.
    ///   - text: the text the sites point into (its sentences are counted with ``Tokenizer``).
    ///   - density: the plan's trap sites per sentence (Planner.densityRange: 0.5 to 2.5).
    /// - Returns: the kept sites, sorted by `start` then skill, as in `all`.
    public static func graded(_ all: [TrapSite], targets: [SkillID], text: String, density: Double) -> [TrapSite] {
        var skills: [SkillID] = []
        for skill in targets where skills.count < Planner.maximumTargets && !skills.contains(skill)
            && all.contains(where: { $0.skill == skill }) {
            skills.append(skill)
        }
        let cap = perSkill(text: text, density: density)
        var kept: [TrapSite] = []
        for skill in skills {
            let mine = all.filter { $0.skill == skill }
            // Different words first ("Léa" once rather than three times) when there are enough.
            var words = Set<String>()
            let distinct = mine.filter { words.insert($0.word.lowercased()).inserted }
            kept += spread(distinct.count >= cap ? distinct : mine, keeping: cap)
        }
        return kept.sorted { ($0.start, $0.skill) < ($1.start, $1.skill) }
    }

    /// The most sites one skill may have in `text`: density × sentences, rounded down, at least 1.
    /// - Parameters:
    ///   - text: the dictation text.
    ///   - density: trap sites per sentence.
    /// - Returns: a count of sites (1 or more).
    public static func perSkill(text: String, density: Double) -> Int {
        let sentences = max(1, Tokenizer.tokenize(text).sentences.count)
        let allowed = (max(density, 0) * Double(sentences)).rounded(.down)
        return max(1, allowed.isFinite ? Int(min(allowed, 1_000)) : 1)
    }

    /// `count` of `sites` evenly spaced in their order: all of them when there are no more.
    static func spread(_ sites: [TrapSite], keeping count: Int) -> [TrapSite] {
        guard sites.count > count else { return sites }
        guard count > 1 else { return [sites[sites.count / 2]] }
        // The first, the last, and evenly between: index round(j × (n − 1) / (count − 1)).
        let n = sites.count
        return (0..<count).map { j in
            sites[Int((Double(j * (n - 1)) / Double(count - 1)).rounded())]
        }
    }
}
