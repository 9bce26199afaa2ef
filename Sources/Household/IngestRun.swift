import DicteeCore
import Foundation
import Ingest
import PrivacyFilter
import Store
import Web

/// One ingest: read the calendar sources (libical, the read window), pass every occurrence
/// through the privacy filter (a parent's label turns an unlabeled event into a moment), record
/// every decision in one transaction, and write the audit file of what may reach a model.
///
/// No calendar text is stored, logged or returned: the report carries counts, diagnostics that
/// name a file, a line and an event reference, and the audit header.
public struct IngestRun: Sendable {
    /// The calendars: files and folders as the user named them (made absolute for the state),
    /// subscription URLs, CalDAV collections.
    public var sources: [CalendarSource]
    /// The zone of floating times and of the dates written.
    public var zone: CalendarZone
    /// "Now", seconds since the epoch: the window is built around it.
    public var now: Int64
    /// Where to write the audit file (mode 0600), or `nil` for none.
    public var auditFile: String?
    /// Wraps the calls into libical, whose own debugging output the command line keeps off the
    /// terminal (only the front end touches stderr); by default the call runs as is.
    public var quietly: @Sendable (() -> Void) -> Void
    /// How remote sources are fetched (redirect rules, retries, a proxy only when configured).
    public var fetcher: Fetcher
    /// Where CalDAV passwords are looked up (`DICTEE_CALDAV_PASSWORD`, `HOME` for ~/.netrc).
    public var environment: [String: String]

    /// An ingest of `sources` around `now` in `zone`, writing the audit file at `auditFile` if given.
    public init(sources: [CalendarSource], zone: CalendarZone, now: Int64, auditFile: String? = nil,
                fetcher: Fetcher = Fetcher(), environment: [String: String] = [:],
                quietly: @escaping @Sendable (() -> Void) -> Void = { $0() }) {
        self.sources = sources
        self.zone = zone
        self.now = now
        self.auditFile = auditFile
        self.fetcher = fetcher
        self.environment = environment
        self.quietly = quietly
    }

    /// An ingest of files, folders or subscription URLs named by strings (`CalendarSource(text:)`).
    public init(sources: [String], zone: CalendarZone, now: Int64, auditFile: String? = nil,
                quietly: @escaping @Sendable (() -> Void) -> Void = { $0() }) {
        self.init(sources: sources.map(CalendarSource.init(text:)), zone: zone, now: now, auditFile: auditFile, quietly: quietly)
    }

    /// Runs the ingest into `store`.
    /// - Returns: the report; per-event and per-file problems are in it (the rest was recorded).
    /// - Throws: `HouseholdError.state` when the state cannot be read or written (nothing was
    ///   recorded), `.cannotWrite` when the audit file cannot be written (the state was recorded).
    public func run(into store: StateStore) throws(HouseholdError) -> IngestReport {
        let window = ReadWindow.around(nowSeconds: now, zone: zone)
        let reader = CalendarReader(zone: zone, window: window)
        // Files are read together in one session, as before; a folder (vdir) and each remote
        // source in a session of its own.
        // Lexique tells a friend's first name from a common noun in a name slot, and a misspelt
        // sensitive word from a real one; without the table, only the names of given-names.txt
        // are kept.
        let lexicon = try? Labels.lexicon(environment: environment)
        // The rules a remote calendar's stored moments were decided with: when they changed (a new
        // dictee, the Lexique table installed), a calendar not read again since would keep
        // moments the new rules refuse, so every remote source is read whole, once.
        let rules = Whitelist.bundled.digests.map { "\($0.file):\($0.sha256)" }.joined(separator: ",")
            + (lexicon == nil ? ",lexique:none" : ",lexique")
        let rulesChanged: Bool
        do { rulesChanged = try store.rulesKey() != rules } catch { throw .state(error) }
        var files: [String] = []
        var reads: [SourceRead] = []
        let reading = SourceReading(reader: reader, now: now, fetcher: fetcher, environment: environment, quietly: quietly)
        for source in sources {
            switch source {
            case .path(let path):
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    reads.append(reading.folder(path))
                } else {
                    files.append(path)
                }
            case .subscription(let remote):
                reads.append(reading.subscription(remote, state: try remoteState(remote.url, store, readWhole: rulesChanged, etag: nil)))
            case .caldav(let remote):
                // ETags are quoted strings (RFC 7232 section 2.3): "" matches none, so every object
                // is fetched again, and the hrefs stay known, so that deletions are still noticed.
                reads.append(reading.caldav(remote, identity: source.identity,
                                            state: try remoteState(source.identity, store, readWhole: rulesChanged, etag: "")))
            }
        }
        var read: IngestResult?
        quietly { read = reader.read(paths: files) }
        var result = read ?? reader.read(paths: files)
        var sourceOf: [String: String] = [:]
        for (k, source) in reads.enumerated() {
            guard let part = source.result else { continue }
            for occurrence in part.occurrences { sourceOf[occurrence.source.file] = reads[k].identity }
            result.occurrences += part.occurrences
            result.diagnostics += part.diagnostics
            result.fileErrors += part.fileErrors
            result.eventCount += part.eventCount
            result.incompleteFiles.formUnion(part.incompleteFiles)
        }
        let failures = reads.compactMap(\.failure)
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
        let filter = PrivacyFilter(family: family, commonWords: lexicon)
        if lexicon == nil {
            result.diagnostics.append(Diagnostic(
                severity: .warning, location: nil, uid: nil, code: "lexicon-missing",
                message: tr("the Lexique table was not found (run Scripts/setup, or set DICTEE_LEXICON): only the first names of Whitelists/given-names.txt are kept in this ingest")))
        }

        var decisions: [(decision: OccurrenceDecision, source: String)] = []
        var entries: [AuditFile.Entry] = []
        var counts = AuditFile.Counts(events: result.eventCount, occurrences: result.occurrences.count)
        var toLabel = Set<EventReference>()
        let absolute = Dictionary(uniqueKeysWithValues: Set(files).map { ($0, LocalPath.absolute($0)) })
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
            let file = occurrence.source.file
            decisions.append((decision, sourceOf[file] ?? absolute[file] ?? LocalPath.absolute(file)))
        }
        counts.toLabel = toLabel.count
        counts.errors = result.errors.count + result.fileErrors.count + failures.count

        // Forget vanished occurrences only for files read completely, and never those of an
        // event that is still in the file but could not be read this time.
        let unreadable = Set(result.fileErrors.compactMap(\.path)).union(result.incompleteFiles)
        let readSources = files.filter { !unreadable.contains($0) }.compactMap { absolute[$0] }
            + reads.filter(\.complete).map(\.identity)
        let keep = Set(result.errors.compactMap { d in d.uid.flatMap { $0.isEmpty ? nil : EventReference(uid: $0) } })
        let storeWindow = StateStore.Window(
            oneOff: window.oneOff, recurring: window.recurring,
            oneOffDates: zone.date(at: window.oneOff.lowerBound).description..<zone.date(at: window.oneOff.upperBound).description,
            recurringDates: zone.date(at: window.recurring.lowerBound).description..<zone.date(at: window.recurring.upperBound).description)
        do {
            try store.record(decisions, window: storeWindow, readSources: readSources, keeping: keep,
                             forgetting: reads.reduce(into: Set()) { $0.formUnion($1.forgetting) },
                             remote: reads.compactMap(\.update))
            try store.setIngestZone(zone.identifier)
            // Only when every remote source was read: a failing one is read whole next time.
            if failures.isEmpty { try store.setRulesKey(rules) }
        } catch {
            throw .state(error)
        }

        // Moments this run did not produce but kept in the window (a remote calendar unchanged
        // since the last run, an event still in a file but unreadable this time) may reach a model
        // too: they go into the audit file, checked again by the filter; one that no longer passes
        // is forgotten, never used.
        let producedKeys = Set(entries.map { OccurrenceKey(event: $0.moment.eventReference, start: $0.moment.start).description })
        var stale = Set<EventReference>()
        do {
            for stored in try store.moments() where !producedKeys.contains(stored.occurrenceKey.description) {
                let at = zone.seconds(of: stored.start)
                guard (stored.isRecurring ? window.recurring : window.oneOff).contains(at) else { continue }
                guard let moment = filter.restored(
                    phrase: stored.phrase, basePhrase: stored.basePhrase, grammar: stored.grammar,
                    firstName: stored.firstName, rule: stored.rule, eventReference: stored.eventReference,
                    start: stored.start, end: stored.end, isRecurring: stored.isRecurring,
                    children: stored.children, kind: stored.kind)
                else {
                    stale.insert(stored.eventReference)
                    continue
                }
                entries.append(AuditFile.Entry(moment: moment, date: zone.date(of: moment.start).description, family: family))
            }
            if !stale.isEmpty { try store.record([], window: storeWindow, forgetting: stale) }
        } catch {
            throw .state(error)
        }
        // The header counts every moment line: those read now and those kept.
        counts.moments = entries.count
        if entries.count > producedKeys.count || !stale.isEmpty {
            // By date, as the audit file is written (verify checks the order); stable otherwise.
            entries = entries.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
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
        return IngestReport(header: header, fileErrors: result.fileErrors, diagnostics: result.diagnostics,
                            sourceFailures: failures)
    }

    /// The stored state of a remote source; with `readWhole`, without its sync token, its objects'
    /// ETags replaced by `etag` and without Last-Modified, so that the source is listed and fetched
    /// whole; its hrefs and stored events are kept to tell what was deleted.
    private func remoteState(_ source: String, _ store: StateStore, readWhole: Bool, etag: String?)
        throws(HouseholdError) -> RemoteState
    {
        var state: RemoteState
        do { state = try store.remoteState(source: source) } catch { throw .state(error) }
        if readWhole {
            state.syncToken = nil
            for href in state.objects.keys {
                state.objects[href]?.etag = etag
                state.objects[href]?.lastModified = nil
            }
        }
        return state
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
    /// Remote sources that could not be fetched (their stored moments stay as they were).
    public var sourceFailures: [SourceFailure] = []

    /// The counts of the run.
    public var counts: AuditFile.Counts { header.counts }
    /// Events that could not be read (the other events of their file were recorded).
    public var eventErrors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The one summary line of an ingest, in the current language, for every command that prints
    /// it (`dictee ingest`, the log of `dictee nightly`): "456 events: 177 moments, 48
    /// disqualified, 196 to label, 0 errors" / "456 événements : 177 moments, 48 écartés, 196 à
    /// nommer, 0 erreur".
    /// - Parameter counts: the counts of the run (`counts`).
    /// - Returns: one line, without a newline.
    public static func summary(_ counts: AuditFile.Counts) -> String {
        let singular = Language.current.isSingular
        return tr("%@: %@, %@, %@, %@",
                  singular(counts.events) ? tr("%ld event", counts.events) : tr("%ld events", counts.events),
                  singular(counts.moments) ? tr("%ld moment", counts.moments) : tr("%ld moments", counts.moments),
                  singular(counts.disqualified) ? tr("ingest.disqualified-one", counts.disqualified) : tr("%ld disqualified", counts.disqualified),
                  tr("%ld to label", counts.toLabel),
                  singular(counts.errors) ? tr("%ld error", counts.errors) : tr("%ld errors", counts.errors))
    }
}
