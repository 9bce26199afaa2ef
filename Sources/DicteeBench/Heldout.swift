// dictee-bench-validate --heldout FILE: the whole validator (Grammalecte included) on a table of
// texts a teacher marked good or bad (Scripts/bench-heldout), the rates and every wrong decision.
import Dictation
import DicteeCore
import Foundation
import French
import PrivacyFilter

/// One row of the held-out table: `id grade prenom genre moment offset time verdict defect text`.
struct HeldoutRow {
    var id: String, grade: Grade, name: String, gender: Gender, moment: String, offset: Int, time: MomentTime
    var good: Bool, defect: String, text: String
}

/// The categories the lead's checks (moment_date, moment_sujet, moment_famille) decide.
let leadCategories: Set<String> = ["date", "sujet", "famille"]

func heldoutMoment(_ text: String) -> MomentPhrase? {
    let wanted = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "’", with: "'")
    let phrases = Whitelist.bundled.canonicalPhrases
    if let p = phrases.first(where: { $0.phrase.lowercased() == wanted.lowercased() }) { return MomentPhrase(phrase: p.phrase, grammar: p.grammar) }
    for p in phrases where p.slot != .none {
        for join in [" " + p.slot.rawValue + " "] + (p.slot == .de ? [" d'"] : []) where wanted.lowercased().hasPrefix((p.phrase + join).lowercased()) {
            let friend = String(wanted.dropFirst((p.phrase + join).count))
            return MomentPhrase(phrase: p.phrase + join + friend, grammar: p.grammar, friendName: friend)
        }
    }
    return nil
}

func runHeldout(path: String) throws -> Int32 {
    guard let lexiconURL = Lexicon.locate(environment: ProcessInfo.processInfo.environment, executable: Bundle.main.executableURL) else {
        FileHandle.standardError.write(Data("bench: Data/lexique-3.83.bin is missing; run Scripts/setup\n".utf8))
        return 69
    }
    guard GrammarChecker.isAvailable() else {
        FileHandle.standardError.write(Data("bench: Grammalecte (python3-grammalecte) is missing; run Scripts/setup\n".utf8))
        return 69
    }
    let validator = Validator(lexicon: try Lexicon(contentsOf: lexiconURL), spelling: try SpellChecker.french(),
                              grammar: .checker(GrammarChecker()), registers: Whitelist.bundledRegisters)
    defer { validator.close() }
    let written = CalendarDate(year: 2026, month: 12, day: 1)
    var rows: [HeldoutRow] = []
    for line in try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline) {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard f.count >= 10, f[0] != "id", !f[0].hasPrefix("#") else { continue }
        guard let grade = Grade(rawValue: f[1]), let offset = Int(f[5]) else {
            print("skipped \(f[0]): grade or offset unreadable"); continue
        }
        rows.append(HeldoutRow(id: f[0], grade: grade, name: f[2], gender: f[3].hasPrefix("f") ? .feminine : .masculine, moment: f[4],
                               offset: offset, time: f[6] == "past" ? .past : .upcoming, good: f[7] == "good",
                               defect: f[8].trimmingCharacters(in: .whitespaces), text: f[9...].joined(separator: "\t")))
    }
    var batch: [(Draft, DictationPlan)] = []
    var kept: [HeldoutRow] = []
    for r in rows {
        guard let moment = heldoutMoment(r.moment) else { print("skipped \(r.id): « \(r.moment) » is not a whitelist phrase"); continue }
        var plan = DictationPlan(child: Child(firstName: r.name, gender: r.gender, grade: r.grade), moment: moment, targets: [])
        let start = written.adding(days: r.offset)
        plan.date = MomentDate(start: start, end: start, written: written, time: r.time)
        batch.append((Draft(text: r.text), plan))
        kept.append(r)
    }
    let results = validator.check(batch)
    func pct(_ n: Int, _ d: Int) -> String { d == 0 ? "-" : String(format: "%.1f %%", 100 * Double(n) / Double(d)) }
    let good = kept.indices.filter { kept[$0].good }
    let bad = kept.indices.filter { !kept[$0].good }
    let goodAccepted = good.filter { results[$0].isEmpty }.count
    let badAccepted = bad.filter { results[$0].isEmpty }.count
    let badOwn = bad.filter { !leadCategories.contains(kept[$0].defect) }
    let badLead = bad.filter { leadCategories.contains(kept[$0].defect) }
    print("held-out table: \(path), \(kept.count) texts (\(good.count) good, \(bad.count) bad), written on \(written)")
    print("good texts accepted:        \(goodAccepted)/\(good.count) (\(pct(goodAccepted, good.count)))")
    print("bad texts wrongly accepted: \(badAccepted)/\(bad.count) (\(pct(badAccepted, bad.count)))")
    let ownAccepted = badOwn.filter { results[$0].isEmpty }.count, leadAccepted = badLead.filter { results[$0].isEmpty }.count
    print("  without date/sujet/famille: \(ownAccepted)/\(badOwn.count) (\(pct(ownAccepted, badOwn.count)))")
    print("  date/sujet/famille (the lead's checks): \(leadAccepted)/\(badLead.count) (\(pct(leadAccepted, badLead.count)))")
    print("per defect category (bad texts wrongly accepted):")
    for category in Set(bad.map { kept[$0].defect }).sorted() {
        let ids = bad.filter { kept[$0].defect == category }
        let n = ids.filter { results[$0].isEmpty }.count
        print("  \(category.padding(toLength: 14, withPad: " ", startingAt: 0)) \(n)/\(ids.count)\(leadCategories.contains(category) ? "  (lead's checks)" : "")")
    }
    print("wrong decisions:")
    for i in good where !results[i].isEmpty {
        print("- \(kept[i].id) good, refused (\(kept[i].grade.rawValue), \(kept[i].moment), \(kept[i].time == .past ? "past" : "coming")): \(kept[i].text)")
        for f in results[i] { print("    \(f.rule): \(f.message)") }
    }
    for i in bad where results[i].isEmpty {
        print("- \(kept[i].id) bad (\(kept[i].defect)), accepted (\(kept[i].grade.rawValue), \(kept[i].moment)): \(kept[i].text)")
    }
    return 0
}
