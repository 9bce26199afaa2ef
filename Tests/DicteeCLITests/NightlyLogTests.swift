import DicteeCore
import Foundation
import Testing
@testable import DicteeCLI
import DicteeTestSupport

/// The cron log of `dictee nightly`: every line dated with the pid, the library notice once and
/// only on a night that writes, a night with nothing to do in one line, `--quiet` for cron mail,
/// and the same log in French.
@Suite struct NightlyLogTests {
    static let now = NightlyTests.now
    /// `2026-11-29T…+01:00 [pid] ` at the start of a line: the fixed test clock, in Europe/Paris.
    static let stamp = "2026-11-30T01:53:20+01:00 [\(ProcessInfo.processInfo.processIdentifier)] "

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test func everyLineIsDatedAndTheLibraryNoticeIsSaidOnceOnlyOnANightThatWrites() throws {
        let (dir, state, env) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = runDictee(["--state", state, "nightly"] + Self.now, environment: env)
        #expect(first.code == .ok, "\(first.stderr)")
        let all = Self.lines(first.stdout) + Self.lines(first.stderr)
        #expect(all.count > 3)
        for line in all { #expect(line.hasPrefix(Self.stamp), "undated: \(line)") }
        #expect(first.stderr.components(separatedBy: "no language model configured").count == 2, "\(first.stderr)")
        // Without a model no text has attempts to log: the notice comes after the ingest's
        // counts, before the summary line (stdout).
        let notice = try #require(Self.lines(first.stderr).firstIndex { $0.contains("no language model configured") })
        let ingest = try #require(Self.lines(first.stderr).firstIndex { $0.contains("moments") })
        #expect(ingest < notice, "the ingest's counts, then the notice")
        #expect(!first.stderr.contains("dictation for child"), "no attempt to log without a model")

        let second = runDictee(["--state", state, "nightly"] + Self.now, environment: env)
        #expect(second.code == .ok)
        #expect(second.stderr.isEmpty, "\(second.stderr)")
        #expect(Self.lines(second.stdout).count == 1)
        #expect(second.stdout.hasPrefix(Self.stamp + "nightly: nothing to do: 2 children, 6 cards ready, "), "\(second.stdout)")
    }

    @Test func quietPrintsOnlyErrorsDated() throws {
        let (dir, state, env) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let quiet = runDictee(["--state", state, "nightly", "--quiet"] + Self.now, environment: env)
        #expect(quiet.code == .ok, "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")

        // A calendar that cannot be read: the error, dated, and nothing else.
        let missing = dir.appendingPathComponent("absent.ics").path
        let failed = runDictee(["--state", state, "nightly", "--quiet", "--calendar", missing] + Self.now, environment: env)
        #expect(failed.code != .ok)
        #expect(failed.stdout.isEmpty, "\(failed.stdout)")
        let errors = Self.lines(failed.stderr)
        #expect(!errors.isEmpty)
        for line in errors { #expect(line.hasPrefix(Self.stamp + "error: "), "not an error line: \(line)") }

        // A usage error of nightly itself is dated too.
        let usage = runDictee(["--state", state, "nightly", "extra", "--quiet"] + Self.now, environment: env)
        #expect(usage.code == .usage && usage.stderr.hasPrefix(Self.stamp + "error: "), "\(usage.stderr)")

        // So is an option the parser refuses, in the machine's zone (TZ here), and --quiet
        // keeps the error without the hint.
        let machineStamp = Self.stamp
        let unknown = runDictee(["--state", state, "nightly", "--quiet", "--bogus"] + Self.now, environment: env)
        #expect(unknown.code == .usage && unknown.stdout.isEmpty && unknown.stderr == machineStamp + "error: unknown option '--bogus'\n",
                "\(unknown.stderr)")
        let loud = runDictee(["--state", state, "nightly", "--bogus"] + Self.now, environment: env)
        #expect(Self.lines(loud.stderr).count == 2 && Self.lines(loud.stderr).allSatisfy { $0.hasPrefix(machineStamp) }, "\(loud.stderr)")
    }

    @Test func theLogIsFrenchUnderAFrenchLocale() throws {
        let (dir, state, env) = try NightlyTests().family()
        defer { try? FileManager.default.removeItem(at: dir) }
        let french = env.merging(["LANG": "fr_FR.UTF-8"]) { $1 }
        let missing = MissingKeys()
        let (first, second) = Language.$missingKeys.withValue(missing) {
            (runDictee(["--state", state, "nightly"] + Self.now, environment: french),
             runDictee(["--state", state, "nightly"] + Self.now, environment: french))
        }
        #expect(first.code == .ok, "\(first.stderr)")
        #expect(first.stdout.hasPrefix(Self.stamp + "nightly : 2 enfants, cartes prêtes : 6, textes écrits : 10 (0 par le modèle, 10 de la bibliothèque), 0 moment sans texte, "),
                "\(first.stdout)")
        #expect(first.stderr.contains("aucun modèle de langue configuré"), "\(first.stderr)")
        #expect(second.stdout.hasPrefix(Self.stamp + "nightly : rien à faire : 2 enfants, cartes prêtes : 6, "), "\(second.stdout)")
        #expect(missing.all.isEmpty, "untranslated: \(missing.all)")
    }
}
