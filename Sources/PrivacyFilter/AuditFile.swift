import DicteeCore
import Foundation

/// The audit file: JSON Lines an auditor reads to check that nothing but canonical phrases and first
/// names may reach a model (Docs/architecture.md, files on disk).
///
/// Line 1, the header: `{"format":"dictee-audit","version":1,"whitelist":{"moments.tsv":SHA256,
/// "disqualifiers.txt":SHA256,"parents.txt":SHA256,"given-names.txt":SHA256,"held.txt":SHA256,
/// "registers.txt":SHA256},"window":{...},
/// "counts":{...}}` (the digests of every rule file that changes the filter's decisions,
/// `Whitelist.digests`). Then one line per moment that may
/// reach a model: `{"date":"2026-11-28","phrase":"l'anniversaire de Tom","first_name":"Tom",
/// "for":["Inès"],"rule":"M005","event_ref":"ev-0123456789ab"}` (`first_name` null when none; `for`
/// the first names of the children the moment is for, `[]` for the whole family's; `rule` a
/// whitelist id or `label` for a parent's label). Nothing else is ever written to it.
///
/// - Warning: `for` holds the family's children's first names, as `first_name` may: the file stays
///   on the family's machine (mode 0600), like the state.
public enum AuditFile {
    public static let format = "dictee-audit"
    public static let version = 1

    /// One moment line: the moment, the local date of its start and whose moment it is.
    public struct Entry: Sendable {
        public var moment: Moment
        /// `YYYY-MM-DD` in the user's zone.
        public var date: String
        /// The first names of the children the moment is for (`moment.children`, in id order), as
        /// the `for` field writes them; empty: the whole family's.
        public var children: [String]

        /// - Parameters:
        ///   - moment: what the filter let through.
        ///   - date: the local date of its start, `YYYY-MM-DD`.
        ///   - family: the family the filter was built with, to write `moment.children` by first
        ///     name; an id it does not hold is left out.
        public init(moment: Moment, date: String, family: [FamilyMember] = []) {
            self.moment = moment
            self.date = date
            let names = Dictionary(family.map { ($0.id, $0.firstName) }, uniquingKeysWith: { a, _ in a })
            self.children = moment.children.compactMap { names[$0] }
        }
    }

    /// The header's read window: ISO 8601 local times with their offset, and the IANA zone.
    public struct Window: Sendable, Hashable {
        /// "Now" of the ingest, e.g. `2026-11-29T18:00:00+01:00`.
        public var now: String
        /// The IANA zone, e.g. `Europe/Paris`.
        public var tz: String
        /// Start of the window for one-off events (now - 2 years).
        public var oneOffFrom: String
        /// Start of the window for recurring events (now - 7 days).
        public var recurringFrom: String
        /// End of the window (now + 14 days), exclusive.
        public var to: String

        public init(now: String, tz: String, oneOffFrom: String, recurringFrom: String, to: String) {
            self.now = now
            self.tz = tz
            self.oneOffFrom = oneOffFrom
            self.recurringFrom = recurringFrom
            self.to = to
        }

        /// As written, in this order.
        var fields: [(String, String)] {
            [("now", now), ("tz", tz), ("one_off_from", oneOffFrom), ("recurring_from", recurringFrom), ("to", to)]
        }
    }

    /// The header's counts of one ingest run.
    public struct Counts: Sendable, Hashable {
        /// VEVENTs read (masters and overrides).
        public var events: Int
        /// Occurrences inside the window.
        public var occurrences: Int
        /// Occurrences that became moments (whitelist or a parent's label), read now or kept from an
        /// earlier run (a remote calendar not read again, an event unreadable this time): one per
        /// moment line of the audit file.
        public var moments: Int
        /// Occurrences a disqualifier matched.
        public var disqualified: Int
        /// Occurrences with no whitelist form and no label.
        public var unlabeled: Int
        /// Events waiting for the parent (unlabeled, not rejected).
        public var toLabel: Int
        /// Events and files that could not be read.
        public var errors: Int

        public init(events: Int = 0, occurrences: Int = 0, moments: Int = 0, disqualified: Int = 0,
                    unlabeled: Int = 0, toLabel: Int = 0, errors: Int = 0) {
            self.events = events
            self.occurrences = occurrences
            self.moments = moments
            self.disqualified = disqualified
            self.unlabeled = unlabeled
            self.toLabel = toLabel
            self.errors = errors
        }

        /// As written, in this order (also `dictee ingest --json`'s keys).
        public var fields: [(String, Int)] {
            [("events", events), ("occurrences", occurrences), ("moments", moments), ("disqualified", disqualified),
             ("unlabeled", unlabeled), ("to_label", toLabel), ("errors", errors)]
        }
    }

    /// The first line's values (the whitelist digests come from the whitelist itself).
    public struct Header: Sendable, Hashable {
        public var window: Window
        public var counts: Counts

        public init(window: Window, counts: Counts) {
            self.window = window
            self.counts = counts
        }
    }

    /// The file's text.
    /// - Parameters:
    ///   - whitelist: its digests go in the header.
    ///   - header: the window and the counts.
    ///   - entries: one line each, in the given order.
    public static func render(whitelist: Whitelist, header: Header, entries: [Entry]) -> String {
        render(whitelist: whitelist, window: header.window.fields, counts: header.counts.fields, entries: entries)
    }

    static func render(
        whitelist: Whitelist, window: [(String, String)], counts: [(String, Int)], entries: [Entry]
    ) -> String {
        var header = "{" + quoted("format") + ":" + quoted(format) + "," + quoted("version") + ":\(version),"
        header += quoted("whitelist") + ":{"
            + whitelist.digests.map { quoted($0.file) + ":" + quoted($0.sha256) }.joined(separator: ",") + "},"
        header += quoted("window") + ":{" + window.map { quoted($0.0) + ":" + quoted($0.1) }
            .joined(separator: ",") + "},"
        header += quoted("counts") + ":{" + counts.map { quoted($0.0) + ":\($0.1)" }
            .joined(separator: ",") + "}}"
        var text = header + "\n"
        for e in entries {
            text += "{" + quoted("date") + ":" + quoted(e.date) + "," + quoted("phrase") + ":"
                + quoted(e.moment.phrase) + "," + quoted("first_name") + ":"
                + (e.moment.firstName.map(quoted) ?? "null") + "," + quoted("for") + ":"
                + forField(e.children) + "," + quoted("rule") + ":"
                + quoted(e.moment.rule) + "," + quoted("event_ref") + ":"
                + quoted(e.moment.eventReference.description) + "}\n"
        }
        return text
    }

    /// What `verify` found.
    public struct Report: Sendable {
        /// Lines after the header (moment lines, valid or not).
        public var lines = 0
        /// Lines per rule id.
        public var byRule: [String: Int] = [:]
        /// The header's counts, if readable.
        public var counts: [String: Int] = [:]
        /// The header's window, if readable.
        public var window: [String: String] = [:]
        /// Offending 1-based line numbers with the reason (never the line's text).
        public var problems: [(line: Int, reason: String)] = []
        /// The whitelist digests differ from the current files (phrases are still checked
        /// against the current files).
        public var whitelistChanged = false
    }

    /// Checks every line. The header must have exactly the keys dictee writes (format, version,
    /// whitelist digests equal to the current files, window, counts) and nothing else. Each moment
    /// line must be exactly what dictee writes for its values (same keys, order and escaping: a
    /// duplicated key or any extra text fails), with a real date, an event reference, a phrase
    /// produced by its whitelist rule (with the name rendered as the filter renders it) or a
    /// parent's label, a name the filter would capture, and a `for` list of distinct first names
    /// that pass `PrivacyFilter.acceptsName` (the children's, when `children` is given). A line
    /// without `for` (written before it existed) is reported like any other missing key.
    /// Anything else is reported by line.
    /// With `owners`, each line's `for` must also be exactly what the state recorded for that
    /// occurrence (the same names in the order the writer uses): a `[]` turned into `["Noah"]`,
    /// `["Noah"]` into `["Inès"]` or two names swapped are reported.
    /// - Parameters:
    ///   - labels: the parent's labels known to the state database.
    ///   - children: the first names of the state's children; `nil` (an auditor without the state):
    ///     names are only checked against the name pattern.
    ///   - commonWords: the lexicon `PrivacyFilter.acceptsCapturedName` asks (Lexique 3.83); `nil`:
    ///     a first name must be listed in `given-names.txt` or be a child's.
    ///   - owners: per occurrence, keyed `ownerKey(eventReference:date:)` ("ev-…|YYYY-MM-DD"), the
    ///     `for` lists the state's moments give (names in the state's children-id order, as
    ///     `Entry` writes them; a set because one series may have several occurrences on one
    ///     date); `nil` (no state): `for` is only checked against `children` and the pattern.
    ///   - recorded: per occurrence (same keys), the `recordedSignature` of each stored moment:
    ///     with it, a line's phrase, first name and rule must be the ones the state stored for
    ///     that occurrence (a phrase swapped for another of the same rule, or for another of the
    ///     parent's labels, is reported); `nil` (no state): only what the rules allow is checked.
    public static func verify(
        _ text: String, whitelist: Whitelist, labels: Set<String>, children: Set<String>? = nil,
        owners: [String: Set<[String]>]? = nil, recorded: [String: Set<String>]? = nil,
        commonWords: (any CommonWordLexicon)? = nil
    ) -> Report {
        var report = Report()
        let filter = PrivacyFilter(whitelist: whitelist, commonWords: commonWords)
        // Split on the line feed scalar: "\r\n" is one Character in Swift.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let formsByID = Dictionary(whitelist.forms.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var seen: [String: Int] = [:]
        var lastDate = ""
        if let last = lines.last, !last.isEmpty {
            report.problems.append((lines.count, "the file does not end with a line feed (cut or edited?)"))
        }
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            if raw.isEmpty && index == lines.count - 1 && index > 0 { break }
            if index > 0 {
                report.lines += 1
                if let first = seen[raw] {
                    report.problems.append((number, "repeats line \(first)"))
                    continue
                }
                seen[raw] = number
            }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(raw.utf8))) as? [String: Any]
            else {
                report.problems.append((number, index == 0 ? "no header line" : "not a JSON object"))
                continue
            }
            if index == 0 {
                checkHeader(object, raw: raw, whitelist: whitelist, into: &report)
                continue
            }
            if let reason = problem(
                in: object, raw: raw, filter: filter, formsByID: formsByID, labels: labels, children: children,
                owners: owners, recorded: recorded)
            {
                report.problems.append((number, reason))
            } else if let date = object["date"] as? String, date < lastDate {
                report.problems.append((number, "lines are not in date order (dictee writes them sorted)"))
            } else if let date = object["date"] as? String, let from = report.window["one_off_from"],
                let to = report.window["to"], date < String(from.prefix(10)) || date > String(to.prefix(10))
            {
                report.problems.append((number, "date is outside the header's window"))
            } else {
                report.byRule[object["rule"] as! String, default: 0] += 1
                lastDate = object["date"] as! String
            }
        }
        if let declared = report.counts["moments"], declared != report.lines {
            report.problems.append((1, "the header counts \(declared) moments but the file has \(report.lines) moment lines"))
        }
        return report
    }

    static let windowKeys: Set<String> = ["now", "tz", "one_off_from", "recurring_from", "to"]
    static let countKeys: Set<String> = [
        "events", "occurrences", "moments", "disqualified", "unlabeled", "to_label", "errors",
    ]

    private static func checkHeader(
        _ object: [String: Any], raw: String, whitelist: Whitelist, into report: inout Report
    ) {
        guard Set(object.keys) == ["format", "version", "whitelist", "window", "counts"],
            object["format"] as? String == format, object["version"] as? Int == version,
            let digests = object["whitelist"] as? [String: String],
            let window = object["window"] as? [String: String], Set(window.keys) == windowKeys,
            let counts = object["counts"] as? [String: Int], Set(counts.keys) == countKeys,
            counts.values.allSatisfy({ $0 >= 0 })
        else {
            report.problems.append((1, "the header is not exactly a dictee-audit version 1 header"))
            return
        }
        report.window = window
        report.counts = counts
        let files = whitelist.digests.map(\.file)
        guard Set(digests.keys) == Set(files) else {
            // A header written before the six digests (moments.tsv and disqualifiers.txt only):
            // the rules of the missing files cannot be vouched for.
            report.whitelistChanged = true
            let missing = files.filter { digests[$0] == nil }
            report.problems.append((1, missing.isEmpty || digests.keys.contains(where: { !files.contains($0) })
                ? "the header's whitelist digests are not exactly those of " + files.joined(separator: ", ")
                : "the header has no digest of " + missing.joined(separator: " and ")
                    + " (written by an older dictee?): the rules that made its moments cannot be checked"))
            return
        }
        // The header must also be byte for byte what dictee writes for these values.
        let again = render(
            whitelist: whitelist,
            window: ["now", "tz", "one_off_from", "recurring_from", "to"].map { ($0, window[$0]!) },
            counts: ["events", "occurrences", "moments", "disqualified", "unlabeled", "to_label", "errors"]
                .map { ($0, counts[$0]!) },
            entries: []
        ).dropLast()
        let changed = whitelist.digests.filter { digests[$0.file] != $0.sha256 }.map(\.file)
        if !changed.isEmpty {
            report.whitelistChanged = true
            report.problems.append((1, "the whitelist digests are not those of this dictee's Whitelists/ files ("
                                    + changed.joined(separator: ", ") + ")"))
        } else if raw != again {
            // Also catches `"version":true`, repeated keys and anything between the values.
            report.problems.append((1, "the header carries something dictee does not write"))
        }
        for key in ["now", "one_off_from", "recurring_from", "to"] where !isTimestamp(window[key]!) {
            report.problems.append((1, "window \(key) is not an ISO 8601 date-time"))
            return
        }
        if let problem = windowProblem(window) { report.problems.append((1, problem)) }
    }

    /// The header's window must be the one dictee computes: a real IANA zone, offsets in force in
    /// it, and bounds at now - 2 years, now - 7 days and now + 14 days on its wall clock.
    private static func windowProblem(_ w: [String: String]) -> String? {
        guard let tzName = w["tz"], !tzName.isEmpty, !tzName.contains(" "),
            let zone = TimeZone(identifier: tzName)
        else { return "window tz is not an IANA time zone" }
        func parts(_ t: String) -> (local: CalendarDate, time: String, offset: Int)? {
            let b = Array(t.utf8)
            guard let y = Int(t.prefix(4)), let mo = Int(t.dropFirst(5).prefix(2)), let d = Int(t.dropFirst(8).prefix(2)),
                let h = Int(t.dropFirst(11).prefix(2)), let mi = Int(t.dropFirst(14).prefix(2)),
                let se = Int(t.dropFirst(17).prefix(2)), let oh = Int(t.dropFirst(20).prefix(2)),
                let om = Int(t.dropFirst(23).prefix(2))
            else { return nil }
            let date = CalendarDate(year: y, month: mo, day: d)
            let offset = (oh * 3600 + om * 60) * (b[19] == 0x2D ? -1 : 1)
            let utc = Int64(date.daysSinceEpoch) * 86_400 + Int64(h * 3600 + mi * 60 + se) - Int64(offset)
            guard zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc))) == offset else { return nil }
            return (date, String(t.dropFirst(11).prefix(8)), offset)
        }
        guard let now = parts(w["now"]!), let oneOff = parts(w["one_off_from"]!),
            let recurring = parts(w["recurring_from"]!), let to = parts(w["to"]!)
        else { return "a window time has an offset that is not in force in its zone" }
        var twoYears = now.local
        twoYears.year -= 2
        twoYears.day = min(twoYears.day, CalendarDate.daysInMonth(twoYears.month, year: twoYears.year))
        guard recurring.local == now.local.adding(days: -7), to.local == now.local.adding(days: 14),
            oneOff.local == twoYears
        else { return "the window bounds are not now - 2 years, now - 7 days and now + 14 days" }
        // A bound that falls in a DST gap moves its wall-clock time; otherwise it keeps now's.
        for bound in [oneOff, recurring, to] where bound.time != now.time && bound.offset == now.offset {
            return "the window bounds do not keep the time of day of now"
        }
        return nil
    }

    private static func problem(
        in object: [String: Any], raw: String, filter: PrivacyFilter,
        formsByID: [String: Whitelist.Form], labels: Set<String>, children: Set<String>?,
        owners recordedOwners: [String: Set<[String]>]?, recorded: [String: Set<String>]?
    ) -> String? {
        guard Set(object.keys) == ["date", "phrase", "first_name", "for", "rule", "event_ref"] else {
            return "keys other than date, phrase, first_name, for, rule, event_ref"
        }
        guard let owners = object["for"] as? [Any], owners.allSatisfy({ $0 is String }) else {
            return "for is not a list of first names"
        }
        let forNames = owners.map { $0 as! String }
        guard Set(forNames).count == forNames.count,
            forNames.allSatisfy({ filter.acceptsName($0) && (children?.contains($0) ?? true) })
        else { return "for holds something other than the family's children's first names" }
        guard let date = object["date"] as? String, isDate(date) else { return "date is not YYYY-MM-DD" }
        guard let ref = object["event_ref"] as? String, EventReference(ref) != nil else {
            return "event_ref is not ev- and 12 hexadecimal digits"
        }
        guard let phrase = object["phrase"] as? String else { return "phrase is not a string" }
        let name: String?
        if object["first_name"] is NSNull {
            name = nil
        } else if let n = object["first_name"] as? String {
            name = n
        } else {
            return "first_name is neither a string nor null"
        }
        guard let rule = object["rule"] as? String else { return "rule is not a string" }
        let expected = "{\"date\":" + quoted(date) + ",\"phrase\":" + quoted(phrase) + ",\"first_name\":"
            + (name.map(quoted) ?? "null") + ",\"for\":" + forField(forNames) + ",\"rule\":" + quoted(rule)
            + ",\"event_ref\":" + quoted(ref) + "}"
        guard raw == expected else { return "the line is not exactly what dictee writes (extra or repeated text)" }
        if let recordedOwners {
            guard let recorded = recordedOwners[ownerKey(eventReference: ref, date: date)] else {
                return "the state has no moment of this event_ref on this date (an audit file of an older ingest?)"
            }
            guard recorded.contains(forNames) else {
                return "for is not whose moment the state recorded for this occurrence"
            }
        }
        if let stored = recorded?[ownerKey(eventReference: ref, date: date)],
           !stored.contains(recordedSignature(phrase: phrase, firstName: name, rule: rule)) {
            return "phrase, first_name or rule is not what the state recorded for this occurrence"
        }
        if rule == "label" {
            guard name == nil else { return "a label line carries a first name" }
            return labels.contains(phrase) ? nil : "phrase is not a label the parent gave"
        }
        guard let form = formsByID[rule] else { return "rule is not a whitelist id" }
        if let name {
            let isFamilyWord = form.slot == .chez && PrivacyFilter.familyWords.contains(name)
            let isChild = children?.contains(name) == true && filter.acceptsName(name)
            guard form.slot != .none, isFamilyWord || isChild || filter.acceptsCapturedName(name) else {
                return "first_name is not a name the filter captures for this rule"
            }
        }
        guard phrase == PrivacyFilter.render(form.phrase, slot: form.slot, name: name) else {
            return "phrase is not what rule \(rule) produces"
        }
        return nil
    }

    /// What `verify`'s `recorded` holds for one stored moment: its phrase, captured name and rule.
    public static func recordedSignature(phrase: String, firstName: String?, rule: String) -> String {
        [phrase, firstName ?? "", rule].joined(separator: "\u{0}")
    }

    /// The key of `verify`'s `owners`: `ev-0123456789ab|2026-12-01`.
    public static func ownerKey(eventReference: String, date: String) -> String { eventReference + "|" + date }

    private static func isTimestamp(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 25, isDate(String(text.prefix(10))), b[10] == 0x54 else { return false }
        let digits = [11, 12, 14, 15, 17, 18, 20, 21, 23, 24]
        return digits.allSatisfy { b[$0] >= 0x30 && b[$0] <= 0x39 } && b[13] == 0x3A && b[16] == 0x3A
            && (b[19] == 0x2B || b[19] == 0x2D) && b[22] == 0x3A
    }

    private static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2,
            parts[2].count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return false }
        return CalendarDate(year: y, month: m, day: d).isValid
    }

    private static func quoted(_ s: String) -> String { JSONText.quoted(s) }

    /// `["Inès","Noah"]`, `[]`.
    private static func forField(_ names: [String]) -> String { "[" + names.map(quoted).joined(separator: ",") + "]" }
}
