import DicteeCore
import Foundation
import Ingest
import PrivacyFilter
import Store

/// One ingest: read the calendar sources (libical, the read window), pass every occurrence
/// through the privacy filter (a parent's label turns an unlabeled event into a moment), record
/// every decision in one transaction, and write the audit file of what may reach a model.
///
/// No calendar text is stored, logged or returned: the report carries counts, diagnostics that
/// name a file, a line and an event reference, and the audit header.
public struct IngestRun: Sendable {
    /// The calendar files, as the user named them (made absolute for the state).
    public var sources: [String]
    /// The zone of floating times and of the dates written.
    public var zone: CalendarZone
    /// "Now", seconds since the epoch: the window is built around it.
    public var now: Int64
    /// Where to write the audit file (mode 0600), or `nil` for none.
    public var auditFile: String?
    /// Wraps the calls into libical, whose own debugging output the command line keeps off the
    /// terminal (only the front end touches stderr); by default the call runs as is.
    public var quietly: @Sendable (() -> Void) -> Void

    /// An ingest of `sources` around `now` in `zone`, writing the audit file at `auditFile` if given.
    public init(sources: [String], zone: CalendarZone, now: Int64, auditFile: String? = nil,
                quietly: @escaping @Sendable (() -> Void) -> Void = { $0() }) {
        self.sources = sources
        self.zone = zone
        self.now = now
        self.auditFile = auditFile
        self.quietly = quietly
    }

    /// Runs the ingest into `store`.
    /// - Returns: the report; per-event and per-file problems are in it (the rest was recorded).
    /// - Throws: `HouseholdError.state` when the state cannot be read or written (nothing was
    ///   recorded), `.cannotWrite` when the audit file cannot be written (the state was recorded).
    public func run(into store: StateStore) throws(HouseholdError) -> IngestReport {
        let window = ReadWindow.around(nowSeconds: now, zone: zone)
        var read: IngestResult?
        quietly { read = CalendarReader(zone: zone, window: window).read(paths: sources) }
        let result = read ?? CalendarReader(zone: zone, window: window).read(paths: sources)
        let labels: [EventReference: StoredLabel]
        let rejected: Set<EventReference>
        let family: [FamilyMember]
        do {
            labels = try store.labels()
            rejected = try store.rejectedEvents()
            // The children's first names and grades are all the filter learns from the state: a
            // title naming a child (or its grade) makes a moment of that child only.
            family = FamilyMember.family(of: try store.children())
        } catch {
            throw .state(error)
        }
        let filter = PrivacyFilter(family: family)

        var decisions: [(decision: OccurrenceDecision, source: String)] = []
        var entries: [AuditFile.Entry] = []
        var counts = AuditFile.Counts(events: result.eventCount, occurrences: result.occurrences.count)
        var toLabel = Set<EventReference>()
        let absolute = Dictionary(uniqueKeysWithValues: Set(sources).map { ($0, LocalPath.absolute($0)) })
        // Occurrences of one series share their texts: classify each text once.
        var known: [String: Classification] = [:]
        for occurrence in result.occurrences {
            let ref = occurrence.eventReference
            let textKey = occurrence.summary + "\u{0}" + occurrence.location + "\u{0}" + occurrence.eventDescription
            let classification = known[textKey] ?? filter.classify(
                title: occurrence.summary, location: occurrence.location, description: occurrence.eventDescription)
            known[textKey] = classification
            var decision: OccurrenceDecision
            switch filter.decision(for: occurrence, classification: classification) {
            case .moment(let m):
                decision = .moment(m)
            case .disqualified(let rule):
                decision = .disqualified(rule: rule, event: ref, start: occurrence.start,
                                         end: occurrence.end, isRecurring: occurrence.isRecurring)
            case .unlabeled:
                decision = .unlabeled(event: ref, start: occurrence.start, end: occurrence.end,
                                      isRecurring: occurrence.isRecurring)
                if let label = labels[ref], case .success(let m) = filter.moment(
                    label: label.text, eventReference: ref, start: occurrence.start,
                    end: occurrence.end, isRecurring: occurrence.isRecurring,
                    grammar: label.grammar, kind: label.kind, children: label.children)
                {
                    decision = .moment(m)
                }
            }
            switch decision {
            case .moment(let m):
                counts.moments += 1
                entries.append(AuditFile.Entry(moment: m, date: zone.date(of: m.start).description, family: family))
            case .disqualified: counts.disqualified += 1
            case .unlabeled:
                counts.unlabeled += 1
                if !rejected.contains(ref) { toLabel.insert(ref) }
            }
            decisions.append((decision, absolute[occurrence.source.file] ?? LocalPath.absolute(occurrence.source.file)))
        }
        counts.toLabel = toLabel.count
        counts.errors = result.errors.count + result.fileErrors.count

        // Forget vanished occurrences only for files read completely, and never those of an
        // event that is still in the file but could not be read this time.
        let unreadable = Set(result.fileErrors.compactMap(\.path)).union(result.incompleteFiles)
        let readSources = sources.filter { !unreadable.contains($0) }.compactMap { absolute[$0] }
        let keep = Set(result.errors.compactMap { d in d.uid.flatMap { $0.isEmpty ? nil : EventReference(uid: $0) } })
        let storeWindow = StateStore.Window(
            oneOff: window.oneOff, recurring: window.recurring,
            oneOffDates: zone.date(at: window.oneOff.lowerBound).description..<zone.date(at: window.oneOff.upperBound).description,
            recurringDates: zone.date(at: window.recurring.lowerBound).description..<zone.date(at: window.recurring.upperBound).description)
        do {
            try store.record(decisions, window: storeWindow, readSources: readSources, keeping: keep)
            try store.setIngestZone(zone.identifier)
        } catch {
            throw .state(error)
        }

        let header = AuditFile.Header(
            window: AuditFile.Window(
                now: zone.iso8601(.instant(now)), tz: zone.identifier,
                oneOffFrom: zone.iso8601(.instant(window.oneOff.lowerBound)),
                recurringFrom: zone.iso8601(.instant(window.recurring.lowerBound)),
                to: zone.iso8601(.instant(window.oneOff.upperBound))),
            counts: counts)
        if let auditFile {
            // The audit file names children: readable by the family's account only.
            let text = AuditFile.render(whitelist: filter.whitelist, header: header, entries: entries)
            do { try PrivateFile.replace(auditFile, with: Data(text.utf8)) } catch { throw .cannotWrite(error) }
        }
        return IngestReport(header: header, fileErrors: result.fileErrors, diagnostics: result.diagnostics)
    }
}

/// What an ingest did: the audit header (window and counts) and the problems, each naming a
/// file, a line and an event reference (never a title).
public struct IngestReport: Sendable {
    /// The audit file's header values (written to the file when one was asked for).
    public var header: AuditFile.Header
    /// Files that could not be read at all (their events were kept as they were).
    public var fileErrors: [IngestError]
    /// Events that could not be read (errors) or were repaired (warnings).
    public var diagnostics: [Diagnostic]

    /// The counts of the run.
    public var counts: AuditFile.Counts { header.counts }
    /// Events that could not be read (the other events of their file were recorded).
    public var eventErrors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}
