import DicteeCore
import DicteeTestSupport
import Foundation
import Testing
@testable import Dictation
import French
import Generation
@testable import Household
import Ingest
import PrivacyFilter
import Store

/// Sixty days of the fixture family (Léa, CE1, and Hugo, CM1; `Fixtures/famille.ics`) as the
/// product runs them: every night `dictee nightly` (ingest, texts from the handwritten library,
/// validated by the real validator without Grammalecte), every evening each child's cards, the
/// first card picked and graded. What a child and a parent would see is then checked on every
/// served text, from the day it was served:
/// - its weekdays, relative days, seasons and tenses agree with its card's date (the validator's
///   `moment_date` rule for the moment's date seen from the serving day);
/// - it names no relative the child may not have (`moment_famille`);
/// - the same library text is never served to a child twice within 8 weeks while another text
///   fits that moment at that time, nor twice in one deal.
@Suite(.serialized) struct SixtyDaysOfTextsTests {
    /// The fixture's children at two ages, and a third child no title names (family moments only).
    static let families: [[Child]] = [
        [Child(firstName: "Léa", gender: .feminine, grade: .ce1), Child(firstName: "Hugo", gender: .masculine, grade: .cm1)],
        [Child(firstName: "Léa", gender: .feminine, grade: .cp), Child(firstName: "Hugo", gender: .masculine, grade: .cm2),
         Child(firstName: "Jade", gender: .feminine, grade: .ce2)],
    ]

    /// With `DICTEE_DUMP_SERVED=PATH`, every served text is appended to PATH (child, grade, moment,
    /// its day seen from the serving day, the text), for a reader's review.
    @Test(arguments: [0, 1])
    func sixtyDaysOfServedTextsAgreeWithTheirDayAndNeverRepeatWithinEightWeeks(family: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-60-days-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["HOME": dir.path, "DICTEE_CONFIG": dir.appendingPathComponent("config.json").path]
        let paths = HouseholdPaths(environment: env, statePath: dir.appendingPathComponent("dictee.sqlite").path)
        let store = try StateStore(path: paths.state)
        for child in Self.families[family] { try store.addChild(child) }
        let dump = ProcessInfo.processInfo.environment["DICTEE_DUMP_SERVED"]
        var dumped = ""
        let zone = try CalendarZone(identifier: "Europe/Paris")
        let lexicon = repositoryRoot.appendingPathComponent("Data/lexique-3.83.bin")
        guard FileManager.default.fileExists(atPath: lexicon.path) else {
            Issue.record("Data/lexique-3.83.bin is missing: run Scripts/setup")
            return
        }
        let validator = Validator(lexicon: try Lexicon(contentsOf: lexicon), spelling: try SpellChecker.french(),
                                  grammar: .skippedForBenchmark, registers: Whitelist.bundledRegisters)
        let library = try Library.bundled()
        let first = try #require(zone.parseISO8601("2026-10-01T02:00:00+02:00"))
        var served: [Int64: [(text: String, day: Int, moment: String, time: MomentTime)]] = [:]
        var checkedTexts = 0
        for day in 0..<60 {
            let night = first + Int64(day) * 86_400
            // `dictee nightly` once a week (ingest reads 14 days ahead, 7 back for series);
            // the cards write what is missing the other days, as they do for a family without cron.
            if day % 7 == 0 {
            let job = NightlyRun(paths: paths, config: Config(),
                                 calendars: [repositoryRoot.appendingPathComponent("Fixtures/famille.ics").path],
                                 zone: zone, zoneIsExplicit: true, now: night, clock: FixedClock(Date(timeIntervalSince1970: TimeInterval(night))),
                                 modelFactory: { _ in nil }, checker: validator)
            _ = try job.run()
            }
            let evening = night + 16 * 3_600
            let session = GenerationSession(model: nil, checker: validator, library: library)
            for child in try store.children() {
                let cards = try Desk.cards(for: child, store, now: evening, zone: zone, createdAt: Date(timeIntervalSince1970: TimeInterval(evening)),
                                           makeSession: { session })
                let ids = cards.compactMap(Desk.libraryTextID)
                #expect(Set(ids).count == ids.count, "day \(day): one library text twice in a deal: \(ids)")
                guard let card = cards.first?.card else { continue }
                let moments = Dictionary(try Desk.cardMoments(store, zone: zone).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
                guard case .served(let d) = try Desk.pick(child, card: card, store, at: Date(timeIntervalSince1970: TimeInterval(evening)), zone: zone) else { continue }
                let candidate = try #require(moments[d.occurrenceKey])
                let date = Desk.momentDate(candidate, now: evening, zone: zone)
                // The text as the child gets it, checked against the card's date on this day.
                var plan = DictationPlan(child: child, moment: candidate.moment, targets: [])
                plan.date = date
                let wrong = validator.check(Draft(text: d.text), plan: plan).filter { ["moment_date", "moment_famille"].contains($0.rule) }
                #expect(wrong.isEmpty, "day \(day), \(child.firstName), \(d.moment) \(date.dayPhrase): \(wrong.map(\.message)) — \(d.text)")
                checkedTexts += 1
                dumped += "\(child.firstName) (\(child.grade.rawValue)) — day \(day), \(Desk.frenchDate(zone.date(at: evening))) — \(d.moment), \(date.dayPhrase) (\(date.time == .past ? "passé" : "à venir")) — \(d.origin)\n\(d.text)\n\n"
                if let id = Desk.libraryTextID(d) {
                    let fitting = library.texts(for: child.grade, fitting: candidate.moment).filter { $0.time.suits(date.time) }.map(\.id)
                    let recent = (served[child.id!] ?? []).filter { day - $0.day < Library.repeatGapDays }
                    let hadAllFitting = Set(fitting).isSubset(of: Set(recent.map(\.text)))
                    if let again = recent.first(where: { $0.text == id }), !hadAllFitting {
                        // Another text the child has not had would have done only if it passes
                        // the validator for this child, moment and date.
                        let had = Set(recent.map(\.text))
                        let passing = library.texts.filter { fitting.contains($0.id) && !had.contains($0.id) }.filter { text in
                            guard let r = try? text.render(firstName: child.firstName, gender: child.gender, moment: candidate.moment, date: date) else { return false }
                            var proven = DictationPlan(child: child, moment: candidate.moment, targets: text.skills, sitesPerTarget: 3)
                            proven.date = date
                            return validator.check(Draft(text: r), plan: proven).isEmpty
                        }
                        if !passing.isEmpty {
                            Issue.record("day \(day), \(child.firstName): \(id) again after \(day - again.day) days (\(again.moment), then \(d.moment)) while \(passing.map(\.id)) fit and pass")
                        }
                    }
                    served[child.id!, default: []].append((id, day, d.moment, date.time))
                }
                _ = try Desk.grade(d, child: child, missed: [], store, at: Date(timeIntervalSince1970: TimeInterval(evening + 600)))
            }
        }
        if let dump, let data = dumped.data(using: .utf8) {
            if let handle = FileHandle(forWritingAtPath: dump) { handle.seekToEndOfFile(); handle.write(data); handle.closeFile() }
            else { FileManager.default.createFile(atPath: dump, contents: data) }
        }
        #expect(checkedTexts >= 80, "two children, sixty days: most evenings have a card (\(checkedTexts))")
        let distinct = served.values.map { Set($0.map(\.text)).count }
        print("60 days: \(checkedTexts) texts served, distinct library texts per child: \(distinct)")
    }
}
