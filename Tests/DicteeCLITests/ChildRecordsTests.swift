import DicteeCore
import Foundation
import Testing

@testable import Store

/// The children's records in the store (`Sources/Store/Children.swift`, issue 16): counts, grade
/// and gender, rename, and a removal that leaves no trace of the name in the file.
@Suite struct ChildRecordsTests {
    static let now = ["--now", "2026-11-29T18:00:00+01:00", "--tz", "Europe/Paris"]

    /// Zéphyrine's own moments (a birthday, judo), one shared with Noah, one of the family's.
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//dictee//test child records//EN\r
        BEGIN:VEVENT\r
        UID:judo-z\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Judo Zéphyrine\r
        DTSTART;TZID=Europe/Paris:20261202T170000\r
        DTEND;TZID=Europe/Paris:20261202T180000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:piscine-both\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Piscine Noah et Zéphyrine\r
        DTSTART;TZID=Europe/Paris:20261203T100000\r
        DTEND;TZID=Europe/Paris:20261203T110000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:anniv-z\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Anniv Zéphyrine\r
        DTSTART;TZID=Europe/Paris:20261205T140000\r
        DTEND;TZID=Europe/Paris:20261205T170000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:cinema\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Cinéma\r
        DTSTART;TZID=Europe/Paris:20261206T140000\r
        DTEND;TZID=Europe/Paris:20261206T170000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:bidule\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Bidule\r
        DTSTART;TZID=Europe/Paris:20261207T140000\r
        DTEND;TZID=Europe/Paris:20261207T170000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:machin\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Machin truc\r
        DTSTART;TZID=Europe/Paris:20261208T140000\r
        DTEND;TZID=Europe/Paris:20261208T170000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:gouter\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Goûter Mamie\r
        DTSTART;TZID=Europe/Paris:20261209T140000\r
        DTEND;TZID=Europe/Paris:20261209T170000\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// A state with Zéphyrine (CE1) and Noah (CM1), the calendar ingested.
    static func family() throws -> (dir: URL, state: String, store: StateStore, z: Int64, noah: Int64) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dictee-child-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("dictee.sqlite").path
        let ics = dir.appendingPathComponent("f.ics")
        try Data(calendar.utf8).write(to: ics)
        #expect(runDictee(["--state", state, "child", "add", "Zéphyrine", "--gender", "f", "--grade", "CE1"]).code == .ok)
        #expect(runDictee(["--state", state, "child", "add", "Noah", "--gender", "m", "--grade", "CM1"]).code == .ok)
        let r = runDictee(["--state", state, "ingest", ics.path, "--audit", dir.appendingPathComponent("audit.jsonl").path] + now)
        #expect(r.code == .ok, "\(r.stderr)")
        let store = try StateStore(path: state)
        let children = try store.children()
        let z = try #require(children.first { $0.firstName == "Zéphyrine" }?.id)
        let noah = try #require(children.first { $0.firstName == "Noah" }?.id)
        return (dir, state, store, z, noah)
    }

    /// A dictation for `child` about `event` (a 12-digit hex number), with one trap site and,
    /// from a model, one attempt.
    static func dictation(_ child: Int64, event: Int, text: String, created: TimeInterval = 1_796_000_000) throws -> DictationRecord {
        let hex = String(event, radix: 16)
        var d = DictationRecord(
            childID: child, eventReference: try #require(EventReference("ev-" + String(repeating: "0", count: 12 - hex.count) + hex)),
            start: .instant(1_796_500_000 + Int64(event)), moment: "la sortie piscine", title: "La sortie piscine", text: text,
            origin: "tiny.gguf", targets: [.homophonesEtEst], aimWords: 12, density: 0.5, plannedAfter: 0,
            sites: [TrapSite(skill: .homophonesEtEst, start: text.unicodeScalars.count - 3, end: text.unicodeScalars.count, word: "est",
                             choice: "est", alternatives: ["et"])],
            createdAt: Date(timeIntervalSince1970: created))
        d.attempts = [AttemptRecord(number: 1, failure: nil, promptTokens: 10, completionTokens: 5, seconds: 1, finishReason: "stop")]
        return d
    }

    /// The bytes of the file at `path` (empty when it does not exist).
    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    @Test func listCountsServedAndReady() throws {
        let (dir, _, store, z, noah) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try store.addDictation(try Self.dictation(z, event: 1, text: "Zéphyrine nage. Elle est"))
        try store.addDictation(try Self.dictation(z, event: 2, text: "Zéphyrine court. Elle est"))
        try store.deal(childID: z, [served])
        _ = try store.pick(childID: z, card: 1, at: Date(timeIntervalSince1970: 1_796_050_000))
        let summaries = try store.childSummaries()
        #expect(summaries.map(\.child.firstName) == ["Noah", "Zéphyrine"])
        #expect(summaries.first { $0.child.id == z }.map { [$0.served, $0.ready] } == [1, 1])
        #expect(summaries.first { $0.child.id == noah }.map { [$0.served, $0.ready] } == [0, 0])
    }

    @Test func aGradeChangeRetiresTheReadyTextsOnly() throws {
        let (dir, _, store, z, noah) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try store.addDictation(try Self.dictation(z, event: 1, text: "Zéphyrine nage. Elle est"))
        try store.deal(childID: z, [served])
        _ = try store.pick(childID: z, card: 1, at: Date(timeIntervalSince1970: 1_796_050_000))
        let ready = try store.addDictation(try Self.dictation(z, event: 2, text: "Zéphyrine court. Elle est"))
        try store.deal(childID: z, [ready])
        let other = try store.addDictation(try Self.dictation(noah, event: 3, text: "Noah court. Il est"))
        #expect(try store.updateChild(id: z, grade: .ce1) == 0, "the same grade changes nothing")
        #expect(try store.dictation(id: ready)?.status == .ready)
        #expect(try store.updateChild(id: z, grade: .ce2) == 1)
        #expect(try store.children().first { $0.id == z }?.grade == .ce2)
        #expect(try store.dictation(id: ready)?.status == .retired)
        #expect(try store.cards(childID: z).isEmpty)
        #expect(try store.dictation(id: served)?.status == .served)
        #expect(try store.dictation(id: other)?.status == .ready)
        let ready2 = try store.addDictation(try Self.dictation(z, event: 4, text: "Zéphyrine lit. Elle est"))
        #expect(try store.updateChild(id: z, gender: .masculine) == 1)
        #expect(try store.dictation(id: ready2)?.status == .retired)
        #expect(try store.children().first { $0.id == z }?.gender == .masculine)
        #expect(throws: StateError.unknownChild) { try store.updateChild(id: 999, grade: .cp) }
    }

    @Test func aRenameKeepsServedTextsAndRetiresReadyOnesNamingTheOldName() throws {
        let (dir, _, store, z, noah) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try store.addDictation(try Self.dictation(z, event: 1, text: "Zéphyrine nage. Elle est"))
        try store.deal(childID: z, [served])
        _ = try store.pick(childID: z, card: 1, at: Date(timeIntervalSince1970: 1_796_050_000))
        let ready = try store.addDictation(try Self.dictation(z, event: 2, text: "Zéphyrine court. Elle est"))
        let naming = try store.addDictation(try Self.dictation(noah, event: 3, text: "Noah et Zéphyrine. Il est"))
        let notNaming = try store.addDictation(try Self.dictation(noah, event: 4, text: "Noah et Zéphyrinette. Il est"))
        #expect(throws: StateError.childExists) { try store.renameChild(id: z, to: "noah") }
        // Names the commands would find as one ("Zoe" is "Zoé"): refused, in any case or accent.
        #expect(throws: StateError.childExists) { try store.renameChild(id: z, to: "Nóah") }
        #expect(try store.renameChild(id: z, to: "Zoé") == 2)
        #expect(try store.children().map(\.firstName) == ["Noah", "Zoé"])
        #expect(try store.dictation(id: served)?.text == "Zéphyrine nage. Elle est")
        #expect(try store.dictation(id: served)?.status == .served)
        #expect(try store.dictation(id: ready)?.status == .retired)
        #expect(try store.dictation(id: naming)?.status == .retired)
        #expect(try store.dictation(id: notNaming)?.status == .ready)
    }

    @Test func removeErasesEveryRowAndTheNameLeavesTheFile() throws {
        let (dir, state, store, z, noah) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The filter gave Zéphyrine her moments: alone (judo, birthday) and with Noah (piscine).
        let before = try store.moments()
        #expect(before.contains { $0.children == [z] })
        #expect(before.contains { $0.children == [noah, z].sorted() })
        // Her history: a graded dictation (sites, exposures, attempts), a ready one, a card.
        let graded = try store.addDictation(try Self.dictation(z, event: 1, text: "Zéphyrine nage. Elle est"))
        try store.deal(childID: z, [graded])
        _ = try store.pick(childID: z, card: 1, at: Date(timeIntervalSince1970: 1_796_050_000))
        _ = try store.grade(dictation: graded, missed: [1], at: Date(timeIntervalSince1970: 1_796_060_000))
        let ready = try store.addDictation(try Self.dictation(z, event: 2, text: "Zéphyrine court. Elle est"))
        try store.deal(childID: z, [ready])
        // Noah's: one served text (his history), one ready text that names his sister.
        let noahServed = try store.addDictation(try Self.dictation(noah, event: 3, text: "Noah court. Il est"))
        try store.deal(childID: noah, [noahServed])
        _ = try store.pick(childID: noah, card: 1, at: Date(timeIntervalSince1970: 1_796_050_000))
        let noahNaming = try store.addDictation(try Self.dictation(noah, event: 4, text: "Noah et Zéphyrine. Il est"))
        #expect(try store.dump().contains("Zéphyrine"))

        let removal = try store.removeChild(id: z)
        #expect(removal.dictations == 2)
        #expect(removal.moments >= 2)
        #expect(removal.keptInOthersHistory == 0)
        #expect(removal.walTruncated)
        #expect(try store.children().map(\.firstName) == ["Noah"])
        #expect(try store.exposures(childID: z).isEmpty)
        #expect(try store.dictations(childID: z).isEmpty)
        #expect(try store.dictation(id: noahNaming) == nil)
        #expect(try store.dictation(id: noahServed)?.status == .served)
        #expect(try store.attempts(dictationID: graded).isEmpty)
        let after = try store.moments()
        #expect(after.allSatisfy { !$0.children.contains(z) })
        #expect(after.contains { $0.children == [noah] }, "the shared moment stays Noah's")
        let dump = try store.dump()
        #expect(!dump.contains("Zéphyrine"))
        #expect(!dump.contains("phyrine"))
        // The file itself, its log and its index: not a byte of the name, in any free page.
        let name = Data("Zéphyrine".utf8), tail = Data("phyrine".utf8)
        for suffix in ["", "-wal", "-shm"] {
            let data = Self.bytes(state + suffix)
            #expect(data.range(of: name) == nil, "\(suffix.isEmpty ? "the database" : suffix) still holds the name")
            #expect(data.range(of: tail) == nil, "\(suffix.isEmpty ? "the database" : suffix) still holds part of the name")
        }
        #expect(throws: StateError.unknownChild) { try store.removeChild(id: z) }
    }

    @Test func removeKeepsASiblingsServedHistoryAndCountsIt() throws {
        let (dir, _, store, z, noah) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try store.addDictation(try Self.dictation(noah, event: 3, text: "Noah et Zéphyrine. Il est"))
        try store.deal(childID: noah, [served])
        _ = try store.pick(childID: noah, card: 1, at: Date(timeIntervalSince1970: 1_796_050_000))
        let removal = try store.removeChild(id: z)
        #expect(removal.keptInOthersHistory == 1)
        #expect(try store.dictation(id: served)?.text == "Noah et Zéphyrine. Il est")
    }

    @Test func removeTakesBackHerLabelsAndStripsHerFromTheOthers() throws {
        let (dir, _, store, z, noah) = try Self.family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pending = try store.pendingSuggestions()
        #expect(pending.count == 3)
        // One label for her alone, one whose words name her (for Noah), one for both.
        let alone = pending[0].id, naming = pending[1].id, both = pending[2].id
        try store.label(suggestion: alone, label: StoredLabel(text: "le bidule", children: [z]), moments: [])
        try store.label(suggestion: naming, label: StoredLabel(text: "le goûter de Zéphyrine", children: [noah]), moments: [])
        try store.label(suggestion: both, label: StoredLabel(text: "le goûter chez Mamie", children: [z, noah]), moments: [])
        let removal = try store.removeChild(id: z)
        #expect(removal.labels == 2)
        #expect(try store.suggestionStatus(id: alone) == "pending")
        #expect(try store.suggestionStatus(id: naming) == "pending")
        #expect(try store.suggestion(id: both)?.label == StoredLabel(text: "le goûter chez Mamie", children: [noah]))
        #expect(!(try store.dump()).contains("Zéphyrine"))
    }

    @Test(arguments: [("Léa", "Léa part.", true), ("Léa", "Léandre part.", false), ("Léa", "Avec léa", true),
                      ("Léa", "Léa-Rose", true), ("Léa", "", false)])
    func aNameIsAWholeWord(name: String, text: String, expected: Bool) {
        #expect(StateStore.mentions(text, name) == expected)
    }
}
