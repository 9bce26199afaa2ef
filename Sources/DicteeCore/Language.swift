import Foundation

/// The language of everything `dictee` writes for people: messages, prompts, help, hints, labels
/// and dates. `--json` keys, skill ids, exit codes and the audit file never change with it.
///
/// The strings live in string tables (`Sources/DicteeCore/Localization/<lang>.lproj/*.strings`,
/// Foundation's property-list format) read through `Bundle`, the toolchain's own mechanism for
/// localised strings. Why not gettext: glibc's `gettext` translates only when the locale named by
/// `LANG` is generated on the machine (a fresh Debian has `C`, `C.utf8` and `POSIX` only) and it
/// reads one process-wide locale, while commands run side by side in one process in the tests, each
/// with its own environment. Here the language is a task-local value set by `DicteeCLI.run`.
///
/// The key of a message is its English text, with `printf` conversions (`%@` for a string, `%ld`
/// for an `Int`); a long text (a command's `--help`) has an identifier key (`help.events`) whose
/// English text is in `en.lproj`. A key missing from the French tables falls back to English and is
/// recorded (`MissingKeys`), and `LocalizationTests` fails on every key of the sources that a
/// table lacks.
public enum Language: String, Sendable, CaseIterable {
    case english = "en"
    case french = "fr"

    /// The language of the current command (task-local; English unless `DicteeCLI.run` set one).
    @TaskLocal public static var current: Language = .english

    /// The language the environment asks for, in gettext's order: the first non-empty of `LC_ALL`,
    /// `LC_MESSAGES`, `LANG`; French when it starts with `fr` (`fr_FR.UTF-8`, `fr_BE`, `fr`),
    /// English otherwise (`C`, `POSIX`, `en_GB.UTF-8`, `de_DE`, nothing set).
    public init(environment: [String: String]) {
        let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy
            .compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = value.lowercased()
        self = lowered == "fr" || lowered.hasPrefix("fr_") || lowered.hasPrefix("fr.") || lowered.hasPrefix("fr@")
            ? .french : .english
    }

    /// The locale dates and numbers are written in: `fr_FR` ("dim. 29 nov.") or `en_GB`
    /// ("Sun 29 Nov", day before month as in the rest of Europe).
    public var locale: Locale { Locale(identifier: self == .french ? "fr_FR" : "en_GB") }

    /// Keys looked up in this language and not found, by the commands of this task (`nil`: not
    /// recorded). Tests set it to catch an untranslated string the source scan cannot see.
    @TaskLocal public static var missingKeys: MissingKeys?
}

/// A sink for keys a lookup did not find (see `Language.missingKeys`). Thread-safe.
public final class MissingKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String] = []
    public init() {}
    func record(_ key: String) { lock.withLock { keys.append(key) } }
    /// The keys not found, in the order they were asked for, each once.
    public var all: [String] {
        lock.withLock {
            var seen = Set<String>()
            return keys.filter { seen.insert($0).inserted }
        }
    }
}

/// The string tables, read once per process: language → key → text.
public enum StringTables {
    /// Every table of `language` merged (`Commands.strings`, `Help.strings`...), key → text.
    /// - Returns: an empty table when the resources cannot be found (the English keys then show).
    public static func table(_ language: Language) -> [String: String] {
        language == .french ? french : english
    }

    /// The file names (without `.strings`) and their entries for `language`, for the checks.
    public static func files(_ language: Language) -> [(name: String, entries: [String: String])] {
        guard let folder = Bundle.module.url(forResource: language.rawValue, withExtension: "lproj",
                                             subdirectory: "Localization"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".strings") }.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil),
                let entries = plist as? [String: String]
            else { return nil }
            return (String(name.dropLast(".strings".count)), entries)
        }
    }

    private static let english = merged(.english)
    private static let french = merged(.french)

    private static func merged(_ language: Language) -> [String: String] {
        files(language).reduce(into: [:]) { table, file in table.merge(file.entries) { first, _ in first } }
    }
}

/// `x` with one decimal, in the current language: a decimal comma in French ("1,5"), a point in
/// English ("1.5").
public func oneDecimal(_ x: Double) -> String {
    let text = String(format: "%.1f", x)
    return Language.current == .french ? text.replacingOccurrences(of: ".", with: ",") : text
}

/// The text of `key` in the current language (`Language.current`), with `arguments` put in its
/// `printf` conversions (positional ones, `%2$@`, let a translation change their order).
///
/// English: the `en.lproj` text when there is one (identifier keys such as `help.events`), else the
/// key itself. French: the `fr.lproj` text; a missing one gives the English text and is recorded in
/// `Language.missingKeys`.
///
///     tr("%ld events: %ld moments", 456, 177)   // "456 événements : 177 moments" in French
///
/// - Parameters:
///   - key: an English message, a string literal (the source check reads it); no interpolation.
///   - arguments: the values, `Int` for `%ld`, `String` for `@`.
public func tr(_ key: String, _ arguments: any CVarArg...) -> String {
    let language = Language.current
    var format = StringTables.table(language)[key]
    if format == nil {
        if language != .english { Language.missingKeys?.record(key) }
        format = StringTables.table(.english)[key] ?? key
    }
    guard let format else { return key }
    return arguments.isEmpty ? format : String(format: format, arguments: arguments)
}

extension Language {
    /// A day as a short label in this language: "dim. 29 nov." / "Sun 29 Nov", with the year
    /// ("dim. 29 nov. 2026" / "Sun 29 Nov 2026") when `withYear`. Computed in the proleptic
    /// Gregorian calendar, whatever the machine's zone.
    public func shortDay(_ day: CalendarDate, withYear: Bool = false) -> String {
        format(day) { $0.setLocalizedDateFormatFromTemplate(withYear ? "EEEMMMdy" : "EEEMMMd") }
            .replacingOccurrences(of: ",", with: "")
    }

    /// A day in full, with its year unless `withYear` is false: "samedi 28 novembre 2026" /
    /// "Saturday 28 November 2026" ("samedi 28 novembre" / "Saturday 28 November").
    public func longDay(_ day: CalendarDate, withYear: Bool = true) -> String {
        format(day) { $0.dateFormat = withYear ? "EEEE d MMMM y" : "EEEE d MMMM" }
    }

    /// `day` at noon UTC, written by a formatter in this language that `pattern` sets up.
    private func format(_ day: CalendarDate, _ pattern: (DateFormatter) -> Void) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
        else { return day.description }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = locale
        pattern(formatter)
        let text = formatter.string(from: date)
        // French writes the first of the month as an ordinal: "mardi 1er décembre", "mar. 1er déc.".
        guard self == .french, day.day == 1 else { return text }
        return text.replacingOccurrences(of: #"(^|\s)1(\s)"#, with: "$11er$2", options: .regularExpression)
    }

    /// Whether a count takes the singular: English for 1 only, French for 0 and 1 ("0 enfant").
    public func isSingular(_ count: Int) -> Bool { self == .french ? abs(count) <= 1 : abs(count) == 1 }

    /// The weekday alone, short: "dim." / "Sun".
    public func shortWeekday(_ day: CalendarDate) -> String {
        let names = self == .french
            ? ["lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."]
            : ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return names[((day.daysSinceEpoch + 3) % 7 + 7) % 7]
    }
}
