import Store
import DicteeCore
import Foundation
import Household
import Ingest

/// `--now ISO-8601` and `--tz IANA`, shared by every command that uses time.
enum TimeOptions {
    static let names = ["now", "tz"]

    /// The zone: `--tz`, else the `TZ` variable, else the system zone (/etc/localtime), else UTC.
    static func zone(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError)
        -> CalendarZone
    {
        if let name = arguments.values["tz"] {
            do {
                return try CalendarZone(identifier: name)
            } catch {
                throw UsageError(description: tr("%@: %@", "--tz", "\(error)"))
            }
        }
        if let tz = tzVariableName(context) {
            if let zone = try? CalendarZone(identifier: tz) { return zone }
            // A POSIX rule such as "UTC0" or "CET-1CEST" names no IANA zone: use the system's.
            context.output.warning(
                tr("TZ='%@' is not an IANA zone name; using the system zone (set --tz Europe/Paris to choose)", tz))
        }
        let name = systemZoneName()
        do {
            return try CalendarZone(identifier: name)
        } catch {
            throw UsageError(description: tr("the system time zone '%@' is unknown; give --tz, e.g. --tz Europe/Paris", name))
        }
    }

    /// The zone a log is dated in when `--tz` is wrong or not read yet: `TZ` when it names an
    /// IANA zone, else the system zone, else `nil` (then UTC); never warns.
    static func machineZone(_ context: CommandContext) -> CalendarZone? {
        if let tz = tzVariableName(context), let zone = try? CalendarZone(identifier: tz) { return zone }
        return try? CalendarZone(identifier: systemZoneName())
    }

    /// The zone name the `TZ` variable gives, as glibc reads it (tzset(3)): a leading ':' dropped,
    /// and a file path under a `zoneinfo/` folder reduced to the name after it
    /// (":/usr/share/zoneinfo/Europe/Paris" → "Europe/Paris"); `nil` when `TZ` is unset or empty.
    /// The name may still be a POSIX rule ("CET-1CEST") that names no IANA zone.
    private static func tzVariableName(_ context: CommandContext) -> String? {
        guard var tz = context.environment["TZ"], !tz.isEmpty else { return nil }
        if tz.hasPrefix(":") { tz.removeFirst() }
        if let r = tz.range(of: "zoneinfo/") { tz = String(tz[r.upperBound...]) }
        return tz
    }

    /// The zone and "now" of a command.
    /// - Throws: a usage failure (64) naming the option.
    static func resolve(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
        -> (zone: CalendarZone, now: Int64)
    {
        do {
            let zone = try zone(arguments, context)
            return (zone, try now(arguments, context, zone: zone))
        } catch {
            throw .usage(error.description)
        }
    }

    /// The zone to show stored dates in: `--tz`, else the zone of the last ingest, else the
    /// usual defaults (`TZ`, the system's).
    static func storedZone(_ arguments: ParsedArguments, _ store: StateStore, _ context: CommandContext) throws(CommandFailure)
        -> CalendarZone
    {
        var given: CalendarZone?
        if arguments.values["tz"] != nil {
            do { given = try zone(arguments, context) } catch { throw .usage(error.description) }
        }
        if let stored = Desk.zoneOfStoredDates(store, explicit: given) { return stored }
        do { return try zone(arguments, context) } catch { throw .usage(error.description) }
    }

    /// "Now" as a usage failure when `--now` is not a date-time.
    static func now(_ arguments: ParsedArguments, _ context: CommandContext, in zone: CalendarZone) throws(CommandFailure) -> Int64 {
        do { return try now(arguments, context, zone: zone) } catch { throw .usage(error.description) }
    }

    /// "Now" in seconds since the epoch: `--now`, else the clock.
    static func now(_ arguments: ParsedArguments, _ context: CommandContext, zone: CalendarZone)
        throws(UsageError) -> Int64
    {
        guard let text = arguments.values["now"] else {
            return Int64(context.clock.now.timeIntervalSince1970.rounded(.down))
        }
        guard let seconds = zone.parseISO8601(text) else {
            throw UsageError(description: tr("--now: '%@' is not a valid ISO 8601 date-time; examples: 2026-11-29T18:00:00+01:00, 2026-11-29T17:00:00Z, 2026-11-29", text))
        }
        return seconds
    }

    private static func systemZoneName() -> String {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let r = target.range(of: "zoneinfo/")
        {
            return String(target[r.upperBound...])
        }
        if let text = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8) {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { return name }
        }
        return "UTC"
    }
}
