import Foundation
import Testing
@testable import DicteeCLI
import DicteeCore
import DicteeTestSupport

/// The French interface is complete: every `tr("…")` key written in the sources has a French text
/// (and an English one when the key is an identifier such as `help.events`), the conversions of a
/// translation are the English ones, no table keeps a key no source asks for, and the language
/// follows `LC_ALL`, `LC_MESSAGES`, `LANG` in that order.
@Suite struct LocalizationTests {
    /// Every `tr("…")` key in `Sources/`, unescaped, with the file and line that asks for it.
    static func sourceKeys() throws -> [(key: String, place: String)] {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        var found: [(String, String)] = []
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", url.lastPathComponent != "Language.swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var rest = Substring(line)
                while let range = rest.range(of: "tr(") {
                    // `tr(` as a word: not `attr(` nor `.tr(`.
                    let before = range.lowerBound == rest.startIndex ? nil : rest[rest.index(before: range.lowerBound)]
                    rest = rest[range.upperBound...]
                    if let before, before.isLetter || before.isNumber || before == "_" || before == "." { continue }
                    let place = "\(url.lastPathComponent):\(number + 1)"
                    guard rest.first == "\"", let key = literal(&rest) else {
                        Issue.record("\(place): tr( takes a one-line string literal, so that this check can read it")
                        continue
                    }
                    found.append((key, place))
                }
            }
        }
        return found
    }

    /// Reads a Swift string literal at the start of `rest` (past its closing quote), unescaped.
    static func literal(_ rest: inout Substring) -> String? {
        var index = rest.index(after: rest.startIndex)
        var value = ""
        while index < rest.endIndex {
            let character = rest[index]
            if character == "\"" {
                rest = rest[rest.index(after: index)...]
                return value
            }
            if character == "\\" {
                index = rest.index(after: index)
                guard index < rest.endIndex else { return nil }
                switch rest[index] {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "u":
                    guard let close = rest[index...].firstIndex(of: "}") else { return nil }
                    let hex = rest[rest.index(index, offsetBy: 2)..<close]
                    guard let scalar = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) else { return nil }
                    value.unicodeScalars.append(scalar)
                    index = close
                default: return nil  // `\(`: an interpolation is not a key
                }
            } else {
                value.append(character)
            }
            index = rest.index(after: index)
        }
        return nil
    }

    /// The `printf` conversions of a format, positions dropped, sorted (`%2$@ %1$ld` → `%@ %ld`).
    static func conversions(_ format: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "%(?:[0-9]+\\$)?([-+ 0#]*[0-9]*(?:\\.[0-9]+)?(?:ll|l|h)?[@dicsuxXfgeE%])")
        let range = NSRange(format.startIndex..., in: format)
        return pattern.matches(in: format, range: range).compactMap {
            Range($0.range(at: 1), in: format).map { String(format[$0]) }
        }.filter { $0 != "%" }.sorted()
    }

    static func isIdentifier(_ key: String) -> Bool {
        key.range(of: "^[a-z]+(\\.[a-z0-9_-]+)+$", options: .regularExpression) != nil
    }

    @Test func everyKeyOfTheSourcesIsTranslated() throws {
        let keys = try Self.sourceKeys()
        let french = StringTables.table(.french)
        let english = StringTables.table(.english)
        for (key, place) in keys {
            #expect(french[key] != nil, "\(place): no French text for \"\(key)\"")
            if Self.isIdentifier(key) {
                #expect(english[key] != nil, "\(place): no English text for the identifier key \(key)")
            }
        }
    }

    @Test func translationsKeepTheConversions() {
        let english = StringTables.table(.english)
        for (key, text) in StringTables.table(.french) {
            let source = english[key] ?? key
            #expect(Self.conversions(text) == Self.conversions(source),
                    "fr \"\(key)\": conversions \(Self.conversions(text)) differ from \(Self.conversions(source))")
        }
    }

    @Test func noTableKeepsAKeyNoSourceAsks() throws {
        let asked = Set(try Self.sourceKeys().map(\.key))
        for language in Language.allCases {
            for file in StringTables.files(language) {
                for key in file.entries.keys.sorted() where !asked.contains(key) {
                    Issue.record("\(language.rawValue).lproj/\(file.name).strings: \"\(key)\" is asked by no source")
                }
            }
        }
    }

    @Test func aKeyHasOneTextPerLanguage() {
        for language in Language.allCases {
            var seen: [String: (String, String)] = [:]
            for file in StringTables.files(language) {
                for (key, text) in file.entries {
                    if let (other, otherText) = seen[key], otherText != text {
                        Issue.record("\(language.rawValue): \"\(key)\" differs in \(other).strings and \(file.name).strings")
                    }
                    seen[key] = (file.name, text)
                }
            }
        }
    }

    @Test func theLanguageFollowsGettextsOrder() {
        #expect(Language(environment: [:]) == .english)
        #expect(Language(environment: ["LANG": "fr_FR.UTF-8"]) == .french)
        #expect(Language(environment: ["LANG": "fr_BE"]) == .french)
        #expect(Language(environment: ["LANG": "fr"]) == .french)
        #expect(Language(environment: ["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "C"]) == .english)
        #expect(Language(environment: ["LANG": "en_GB.UTF-8", "LC_MESSAGES": "fr_CA.UTF-8"]) == .french)
        #expect(Language(environment: ["LC_ALL": "C", "LC_MESSAGES": "fr_FR.UTF-8"]) == .english)
        #expect(Language(environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "fr_FR.UTF-8"]) == .french)
        #expect(Language(environment: ["LANG": "french"]) == .english)
        #expect(Language(environment: ["LANG": "de_DE.UTF-8"]) == .english)
    }

    @Test func daysFollowTheLanguage() {
        let day = CalendarDate(year: 2026, month: 11, day: 29)
        #expect(Language.french.shortDay(day) == "dim. 29 nov.")
        #expect(Language.english.shortDay(day) == "Sun 29 Nov")
        #expect(Language.french.shortWeekday(day) == "dim.")
        #expect(Language.english.shortWeekday(CalendarDate(year: 2026, month: 11, day: 28)) == "Sat")
        // The first of the month is an ordinal in French, and only the day is touched.
        let first = CalendarDate(year: 2026, month: 12, day: 1)
        #expect(Language.french.shortDay(first) == "mar. 1er déc.")
        #expect(Language.french.longDay(first) == "mardi 1er décembre 2026")
        #expect(Language.french.longDay(first, withYear: false) == "mardi 1er décembre")
        #expect(Language.french.shortDay(CalendarDate(year: 2031, month: 1, day: 1), withYear: true) == "mer. 1er janv. 2031")
        #expect(Language.french.longDay(CalendarDate(year: 2026, month: 12, day: 11)) == "vendredi 11 décembre 2026")
        #expect(Language.english.longDay(first) == "Tuesday 1 December 2026")
        #expect(Language.english.shortDay(day, withYear: true) == "Sun 29 Nov 2026")
    }

    @Test func aMissingFrenchKeyFallsBackToEnglishAndIsRecorded() {
        let missing = MissingKeys()
        let text = Language.$missingKeys.withValue(missing) {
            Language.$current.withValue(.french) { tr("no such key %ld", 3) }
        }
        #expect(text == "no such key 3")
        #expect(missing.all == ["no such key %ld"])
    }
}
