// dictee-fuzz-ingest: libFuzzer harness over the calendar reader and the privacy filter
// (Scripts/fuzz; README "Fuzzing"). Each input is the bytes of one calendar document, read as the
// CLI reads a file's bytes (`CalendarReader.read(documents:)`) with the demo's fixed "now"
// (2026-11-29 18:00, Europe/Paris) and window; every occurrence then goes through the privacy
// filter with a family of two children, each text classified once as the ingest run does. A
// broken invariant is a crash (`fatalError`), so libFuzzer keeps the input.
//
// The invariants are cheap: occurrences inside the read window with consistent ends; a moment is
// its whitelist form's canonical phrase, rendered with at most an accepted name (no other title
// text can reach it), for the occurrence it came from, for children of the family; a disqualified
// event names a known rule.
import DicteeCore
import FuzzSupport
import Ingest
import PrivacyFilter

enum IngestHarness {
    /// The demo's "now": 2026-11-29T18:00:00+01:00, in seconds since the epoch.
    static let now: Int64 = 1_795_971_600
    static let zone: CalendarZone = {
        do { return try CalendarZone(identifier: "Europe/Paris") } catch { fatalError("tzdata has no Europe/Paris") }
    }()
    static let window = ReadWindow.around(nowSeconds: now, zone: zone)
    static let reader = CalendarReader(zone: zone, window: window)
    static let family = [
        FamilyMember(id: 1, firstName: "Léa", grade: .ce1),
        FamilyMember(id: 2, firstName: "Hugo", grade: .cm1),
    ]
    static let filter = PrivacyFilter(family: family)
    static let formsByID = Dictionary(filter.whitelist.forms.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    static let ruleIDs = Set((filter.whitelist.disqualifiers + filter.whitelist.parentRules + filter.whitelist.ownerWords).map(\.id))
    static let familyNames = Set(family.map(\.firstName))
    static let listedNames = Set(filter.whitelist.givenNames.values)

    static func run(_ bytes: [UInt8]) {
        let result = reader.read(documents: [(name: "fuzz.ics", bytes: bytes)])
        // As the ingest run does (Household's IngestRun): each text classified once, then the
        // decision for each occurrence (a 16 KB title on a daily series is classified once, not
        // 21 times, which libFuzzer would report as a slow unit).
        var known: [String: Classification] = [:]
        for occurrence in result.occurrences {
            checkWindow(occurrence)
            let key = occurrence.summary + "\u{0}" + occurrence.location + "\u{0}" + occurrence.eventDescription
            let classification = known[key] ?? filter.classify(
                title: occurrence.summary, location: occurrence.location, description: occurrence.eventDescription)
            known[key] = classification
            check(filter.decision(for: occurrence, classification: classification), for: occurrence)
        }
    }

    /// The start is inside the window (an all-day start, local midnight of its date, within a day
    /// of it: Europe/Paris is at most two hours from UTC), the end not before it.
    static func checkWindow(_ o: Occurrence) {
        let kept = o.isRecurring ? window.recurring : window.oneOff
        switch (o.start, o.end) {
        case (.instant(let start), .instant(let end)):
            guard kept.contains(start) else { fatalError("an occurrence starts outside the window") }
            guard end >= start else { fatalError("an occurrence ends before it starts") }
        case (.date(let start), .date(let end)):
            let midnight = Int64(start.daysSinceEpoch) * 86_400
            guard midnight + 86_400 > kept.lowerBound, midnight - 86_400 < kept.upperBound else {
                fatalError("an all-day occurrence starts outside the window")
            }
            guard end > start else { fatalError("an all-day occurrence does not end after its start date") }
        default:
            fatalError("an occurrence mixes a date and an instant")
        }
    }

    /// What the filter decided is made of whitelist rules only.
    static func check(_ decision: FilterDecision, for o: Occurrence) {
        switch decision {
        case .moment(let m):
            guard let form = formsByID[m.rule] else { fatalError("a moment names no whitelist form") }
            guard m.basePhrase == form.phrase, m.grammar == form.grammar else {
                fatalError("a moment's phrase is not its form's canonical phrase")
            }
            guard m.phrase == PrivacyFilter.render(form.phrase, slot: form.slot, name: m.firstName) else {
                fatalError("a moment's phrase holds more than its form and its name")
            }
            if let name = m.firstName {
                guard form.slot != .none else { fatalError("a name was kept by a form without a name slot") }
                guard filter.acceptsName(name) || familyNames.contains(name) || listedNames.contains(name)
                    || PrivacyFilter.familyWords.contains(name)
                else { fatalError("a moment keeps a name the filter does not accept") }
            }
            guard m.children.allSatisfy({ id in family.contains { $0.id == id } }) else {
                fatalError("a moment names a child outside the family")
            }
            guard m.eventReference == o.eventReference, m.start == o.start, m.end == o.end,
                  m.isRecurring == o.isRecurring
            else { fatalError("a moment does not carry its occurrence's reference and dates") }
        case .disqualified(let rule):
            guard ruleIDs.contains(rule) else { fatalError("a disqualification names no known rule") }
        case .unlabeled:
            break
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    IngestHarness.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

@main
struct FuzzIngest {
    static func main() {
        FuzzDriver.main(LLVMFuzzerTestOneInput)
    }
}
