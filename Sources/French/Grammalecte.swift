// The grammar gate: Grammalecte (Debian grammalecte-cli 2.1.2, GPL-3) run as a child process,
// one process per batch of paragraphs, JSON out. ../shared/DOMAIN.md §3.
import DicteeCore
import Foundation

/// One problem Grammalecte found in a paragraph.
///
/// - Warning: `message` quotes words of the text (`“Léa” et “allé” ne sont pas accordés`), so it
///   can hold a child's first name: show it to the parent or the model, never write it to a log.
public struct GrammarIssue: Sendable, Hashable, Codable {
    /// Grammalecte's rule identifier (`sRuleId`, e.g. `gv1__ppas_nom_propre_être_accord__b1_a2_1`),
    /// or `spelling` for a word its dictionary does not know.
    public var ruleID: String
    /// Grammalecte's rule type (`sType`, the option that switches the rule on: `ppas`, `gn`,
    /// `conj`, `conf`...), or `spelling`.
    public var type: String
    /// Start of the flagged span: a Unicode scalar offset into the paragraph as the caller passed
    /// it (half-open with `end`). Grammalecte reports Python `str` indexes, which count code
    /// points, i.e. Unicode scalars (checked: an emoji before the error shifts it by one, not by
    /// two UTF-16 units), on the very text it was given (it does not normalise to NFC), so the
    /// offsets are used as they come. They are not `Character` offsets: `é` written as `e` +
    /// U+0301 counts two.
    public var start: Int
    /// End of the flagged span (exclusive), in Unicode scalars.
    public var end: Int
    /// Grammalecte's explanation, in French (`sMessage`); a fixed sentence for spelling errors.
    public var message: String
    /// Replacements Grammalecte proposes, best first (`aSuggestions`); empty for spelling errors
    /// unless the checker was created with `spellingSuggestions: true`.
    public var suggestions: [String]
    /// True for an entry of `lSpellingErrors` (a word unknown to Grammalecte's dictionary).
    public var isSpelling: Bool

    /// `ruleID` and `type` of spelling errors.
    public static let spellingType = "spelling"

    public init(ruleID: String, type: String, start: Int, end: Int, message: String,
                suggestions: [String], isSpelling: Bool) {
        self.ruleID = ruleID
        self.type = type
        self.start = start
        self.end = end
        self.message = message
        self.suggestions = suggestions
        self.isSpelling = isSpelling
    }
}

/// Why the grammar check could not run. No text passes the gate when it throws.
public enum GrammarCheckerError: Error, CustomStringConvertible, Equatable {
    /// `grammalecte-cli` is not installed (or the given executable does not exist).
    case unavailable
    /// The process ended with a non-zero status (or was killed by a signal, or could not be
    /// started: status -1). `message` is the first line of its standard error, or the last one
    /// for a Python traceback (which names the exception), cut to 200 characters.
    case failed(status: Int32, message: String)
    /// The process ran longer than the timeout (in seconds) and was killed with its process group.
    case timeout(seconds: Double)
    /// The output is not Grammalecte's JSON, or does not match the paragraphs sent.
    case unreadableOutput(reason: String)

    public var description: String {
        switch self {
        case .unavailable:
            "grammalecte-cli is not installed (apt-get install grammalecte-cli); "
                + "without it no text can pass the grammar check"
        case .failed(let status, let message):
            "grammalecte-cli failed with status \(status)" + (message.isEmpty ? "" : ": \(message)")
        case .timeout(let seconds):
            "grammalecte-cli did not finish within \(Self.format(seconds)) s and was stopped"
        case .unreadableOutput(let reason):
            "grammalecte-cli gave unreadable output: \(reason)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Grammalecte's grammar and spelling check of French paragraphs, run as `grammalecte-cli`.
///
/// Each `check` call writes the paragraphs to a temporary UTF-8 file (mode 0600, removed after),
/// one per line, runs `grammalecte-cli -f FILE -j` once, and parses its JSON. What was found
/// while writing this (Grammalecte 2.1.2):
/// - Numbering: without `--concat_lines` every line is a paragraph numbered from 1, empty lines
///   included (`iParagraph` is the line number). Without `-owe` (`--only_when_errors`) every
///   paragraph gets an object, with empty lists when it has no error; `-owe` would drop those.
///   So no `-owe`: every paragraph must come back, which catches truncated output.
/// - Line breaks: Python splits the file at `\n`, `\r` and `\r\n`, so each CR and LF inside a
///   paragraph is replaced by one space (one scalar for one scalar: offsets stay valid).
/// - Typography is not an error for a dictation, so issues whose `sType` is typographic or
///   purely stylistic are dropped (`stylisticTypes`, `isStylistic`). Kept: agreement (`gn`,
///   `ppas`), conjugation and moods (`conj`, `infi`, `imp`, `inte`, `vmode`), homophones and
///   confusions (`conf`), locutions (`loc`), hyphens and compounds (`tu`), elision and euphony
///   (`eleu`), capitals (`maj`: months, days, after a full stop), criticised usage (`bs`:
///   "malgré que"), impossible dates (`date`), repeated words (`doublon`) and spelling.
/// - Unknown words, children's first names among them (`Zélinda`, `Kaïs`, `Aylin`), come back in
///   `lSpellingErrors` only; `check(_:acceptedWords:)` drops those.
/// - First names and gender: Grammalecte's lexicon (the same as hunspell-fr) tags many first
///   names with a gender (`Léa`, `Inès`, `Zoé`, `Emma`, `Maëlys`: feminine; `Tom`, `Maël`,
///   `Léo`, `Timéo`: masculine) and rule `ppas_nom_propre_être_accord` checks a participle
///   after `être` against it: "Léa est allé" and "Maël est allée" are flagged *because of the
///   name*. Epicene names (`Nour`, `Camille`, `Sacha`) and unknown names are not checked at
///   all: "Nour est allé" and "Nour est allée" both pass. To check agreement with a child's
///   actual gender, replace the name by `genderProxy(for:)` before checking.
/// - Speed (measured through this type on a 2-core Intel Xeon virtual machine, one process,
///   Grammalecte is single-threaded): start-up about 0.26 s (a batch of one short paragraph);
///   a batch of 500 paragraphs of about 64 words takes 4.8 to 5.0 s, i.e. about 100 paragraphs
///   per second overall, about 9 ms per paragraph after start-up. So batch: 500 paragraphs in
///   one process cost about what 18 separate one-paragraph runs do. Spelling suggestions
///   (`-wss`) cost about 20 ms per unknown word, hence off by default.
///
/// - Warning: the texts (which may hold a child's first name) are written to a temporary file
///   readable only by the user and removed when the check ends.
public struct GrammarChecker: Sendable {
    /// The executable given to `init`, or the one found on `PATH`; nil when none was found.
    public let executable: URL?
    /// Seconds a batch may run before the process is killed.
    public let timeout: Double
    /// Whether spelling errors carry suggestions (`-wss`; about 20 ms per unknown word).
    public let spellingSuggestions: Bool

    /// `sType` values dropped from the results: typography and style, not errors a child could
    /// learn from a dictation. From `grammalecte-cli -lo` / `-lr`:
    /// - `apos` typographic apostrophe (`'` for `’`), `nbsp` and `unit` non-breaking spaces,
    ///   `esp` extra spaces, `tab` tabulations, `typo` typographic signs (quotes, dashes,
    ///   ellipsis, spaces around punctuation; see `keptTypographicRules` for the exceptions),
    ///   `num` number formatting (`10 000`), `liga` ligatures, `chim` chemical formulas,
    ///   `nf` French standards' names, `eepi` inclusive writing (`étudiant·e·s`), `minis`
    ///   capitals of ministries, `html`/`latex`/`md` markup;
    /// - `virg`: commas that are "souhaitables" (before `mais`, `car`, `donc`, in dialogue),
    ///   advice rather than errors; `pleo`: pleonasms ("monter en haut"); `redon1`/`redon2`:
    ///   repetitions (off by default).
    /// Rules without an option come as `notype`; among them `num_*`, `eepi_*` and `typo_*` are
    /// dropped too, `doublon` ("le le") is kept.
    public static let stylisticTypes: Set<String> = [
        "apos", "nbsp", "unit", "esp", "tab", "typo", "num", "liga", "chim", "nf", "eepi", "minis",
        "html", "latex", "md", "virg", "pleo", "redon1", "redon2",
    ]

    /// Rules of type `typo` that are spelling, not typography, and are kept: a missing
    /// apostrophe in an elision ("jusqu à"), a forbidden elision ("presqu'arrivé",
    /// "quelqu'autre"), an unaccented capital preposition ("A Paris" for "À Paris").
    public static let keptTypographicRules: [String] = [
        "typo_apostrophe_manquante", "typo_presque", "typo_quelque", "typo_À_début_phrase",
    ]

    /// Whether an issue is typography or style (see `stylisticTypes`).
    ///
    /// - Parameters:
    ///   - type: Grammalecte's `sType`.
    ///   - ruleID: Grammalecte's `sRuleId`.
    /// - Returns: `true` if the issue is not an error for a dictation.
    public static func isStylistic(type: String, ruleID: String) -> Bool {
        if keptTypographicRules.contains(where: { ruleID.contains($0) }) { return false }
        if stylisticTypes.contains(type) { return true }
        if type == "notype" {
            // "g2__typo_x__b1_a1_1" or "typo_x": the family is the part before the first "_"
            // once a graph prefix ("g2__", "gv1__") is removed.
            let family = ruleID.range(of: "__").map { String(ruleID[$0.upperBound...]) } ?? ruleID
            let head = family.split(separator: "_", maxSplits: 1).first.map(String.init) ?? family
            return ["num", "eepi", "typo"].contains(head)
        }
        return false
    }

    /// A first name whose gender Grammalecte knows, to stand in for a child's name.
    ///
    /// Grammalecte checks "NAME est allé(e)" against the gender its lexicon gives the name, and
    /// does not check unknown or epicene names. Replace the child's name by this proxy in the
    /// text to check agreement with the child's real gender, then map the issues back (offsets
    /// after the name shift by the difference in length).
    ///
    /// - Parameter gender: the child's grammatical gender.
    /// - Returns: `Léa` (tagged feminine only) or `Tom` (tagged masculine only); neither is also a
    ///   common noun.
    public static func genderProxy(for gender: Gender) -> String {
        switch gender {
        case .feminine: "Léa"
        case .masculine: "Tom"
        }
    }

    /// Creates a checker; nothing runs until `check`.
    ///
    /// - Parameters:
    ///   - executable: the `grammalecte-cli` to run; nil looks for `grammalecte-cli` in the
    ///     directories of `PATH`, then `/usr/bin/grammalecte-cli`.
    ///   - timeout: seconds one batch may take before the process is killed (default 120, room
    ///     for about 10,000 short paragraphs).
    ///   - spellingSuggestions: ask for suggestions on spelling errors (`-wss`, slow).
    public init(executable: URL? = nil, timeout: Double = 120, spellingSuggestions: Bool = false) {
        self.executable = executable ?? Self.locate()
        self.timeout = timeout
        self.spellingSuggestions = spellingSuggestions
    }

    /// Whether `grammalecte-cli` can be run.
    ///
    /// - Parameter executable: a specific executable, or nil to search as `init` does.
    /// - Returns: `true` if the file exists and is executable (it is not started).
    public static func isAvailable(executable: URL? = nil) -> Bool {
        guard let url = executable ?? locate() else { return false }
        return isExecutableFile(url)
    }

    /// `grammalecte-cli` in the directories of `PATH`, else `/usr/bin/grammalecte-cli`, else nil.
    ///
    /// This reads the process environment's `PATH`: the same lookup a shell would do.
    public static func locate() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("grammalecte-cli")
            if isExecutableFile(candidate) { return candidate }
        }
        let fallback = URL(fileURLWithPath: "/usr/bin/grammalecte-cli")
        return isExecutableFile(fallback) ? fallback : nil
    }

    /// Checks paragraphs; typographic and stylistic issues are dropped.
    ///
    /// - Parameter paragraphs: French paragraphs; line breaks inside one become spaces; an empty
    ///   paragraph is allowed (it gets an empty list).
    /// - Returns: one list per paragraph, in the same order, sorted by `start`; offsets are
    ///   Unicode scalar offsets into that paragraph.
    /// - Throws: `GrammarCheckerError`; on any error no paragraph should be taken as correct.
    public func check(_ paragraphs: [String]) throws(GrammarCheckerError) -> [[GrammarIssue]] {
        try check(paragraphs, acceptedWords: [])
    }

    /// Checks paragraphs, accepting some words Grammalecte's dictionary does not know.
    ///
    /// - Parameters:
    ///   - paragraphs: as in `check(_:)`.
    ///   - acceptedWords: words whose spelling errors are dropped, typically the children's first
    ///     names (`Aylin`, `Marie-Zélinda`: Grammalecte reports a hyphenated name as one word).
    ///     Compared exactly after NFC normalisation: `aylin` in lower case stays an error.
    /// - Returns: as `check(_:)`.
    /// - Throws: as `check(_:)`.
    public func check(_ paragraphs: [String], acceptedWords: Set<String>) throws(GrammarCheckerError)
        -> [[GrammarIssue]] {
        guard let executable, Self.isExecutableFile(executable) else { throw .unavailable }
        if paragraphs.isEmpty { return [] }
        let accepted = Set(acceptedWords.map(\.precomposedStringWithCanonicalMapping))

        // One paragraph per line; every line-breaking scalar becomes one space.
        let lines = paragraphs.map { paragraph -> String in
            var scalars = String.UnicodeScalarView()
            for scalar in paragraph.unicodeScalars {
                scalars.append(scalar == "\n" || scalar == "\r" ? " " : scalar)
            }
            return String(scalars)
        }
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictee-grammalecte-\(UUID().uuidString).txt")
        let contents = Data((lines.joined(separator: "\n") + "\n").utf8)
        guard FileManager.default.createFile(atPath: file.path, contents: contents,
                                             attributes: [.posixPermissions: 0o600]) else {
            throw .failed(status: -1, message: "could not write a temporary file in \(file.deletingLastPathComponent().path)")
        }
        defer { try? FileManager.default.removeItem(at: file) }

        var arguments = ["-f", file.path, "-j"]
        if spellingSuggestions { arguments.append("-wss") }
        let output = try ChildProcess.run(executable: executable, arguments: arguments, timeout: timeout)
        return try Self.parse(output, paragraphs: paragraphs, accepted: accepted)
    }

    // MARK: - Output

    private struct Output: Decodable {
        var data: [Paragraph]
    }

    private struct Paragraph: Decodable {
        var iParagraph: Int
        var lGrammarErrors: [GrammarError]
        var lSpellingErrors: [SpellingError]
    }

    private struct GrammarError: Decodable {
        var nStart: Int
        var nEnd: Int
        var sRuleId: String
        var sType: String
        var sMessage: String
        var aSuggestions: [String]?
    }

    private struct SpellingError: Decodable {
        var nStart: Int
        var nEnd: Int
        var sValue: String
        var aSuggestions: [String]?
    }

    private static func parse(_ data: Data, paragraphs: [String], accepted: Set<String>)
        throws(GrammarCheckerError) -> [[GrammarIssue]] {
        let output: Output
        do {
            output = try JSONDecoder().decode(Output.self, from: data)
        } catch {
            let start = String(decoding: data.prefix(60), as: UTF8.self)
                .replacingOccurrences(of: "\n", with: " ")
            throw .unreadableOutput(reason: "not Grammalecte's JSON (\(data.count) bytes, starting \"\(start)\")")
        }
        var result = [[GrammarIssue]?](repeating: nil, count: paragraphs.count)
        for paragraph in output.data {
            let index = paragraph.iParagraph - 1
            guard result.indices.contains(index) else {
                throw .unreadableOutput(reason: "paragraph number \(paragraph.iParagraph) of \(paragraphs.count)")
            }
            guard result[index] == nil else {
                throw .unreadableOutput(reason: "paragraph \(paragraph.iParagraph) reported twice")
            }
            let length = paragraphs[index].unicodeScalars.count
            var issues: [GrammarIssue] = []
            for error in paragraph.lGrammarErrors {
                guard 0 <= error.nStart, error.nStart <= error.nEnd else {
                    throw .unreadableOutput(reason: "span \(error.nStart)..<\(error.nEnd) in paragraph \(paragraph.iParagraph)")
                }
                if isStylistic(type: error.sType, ruleID: error.sRuleId) { continue }
                issues.append(GrammarIssue(
                    ruleID: error.sRuleId, type: error.sType,
                    start: min(error.nStart, length), end: min(error.nEnd, length),
                    message: error.sMessage, suggestions: error.aSuggestions ?? [], isSpelling: false))
            }
            for error in paragraph.lSpellingErrors {
                guard 0 <= error.nStart, error.nStart <= error.nEnd else {
                    throw .unreadableOutput(reason: "span \(error.nStart)..<\(error.nEnd) in paragraph \(paragraph.iParagraph)")
                }
                if accepted.contains(error.sValue.precomposedStringWithCanonicalMapping) { continue }
                issues.append(GrammarIssue(
                    ruleID: GrammarIssue.spellingType, type: GrammarIssue.spellingType,
                    start: min(error.nStart, length), end: min(error.nEnd, length),
                    message: "Mot inconnu du dictionnaire.", suggestions: error.aSuggestions ?? [],
                    isSpelling: true))
            }
            issues.sort { ($0.start, $0.end) < ($1.start, $1.end) }
            result[index] = issues
        }
        if let missing = result.firstIndex(where: { $0 == nil }) {
            throw .unreadableOutput(reason: "paragraph \(missing + 1) of \(paragraphs.count) missing")
        }
        return result.map { $0 ?? [] }
    }

    /// The line of a child's standard error that `GrammarCheckerError.failed` carries.
    static func standardErrorSummary(_ data: Data) -> String {
        ChildProcess.summary(ofStandardError: data)
    }

    fileprivate static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
    }
}

// MARK: - Child process

/// Runs one child process with arguments (never a shell), reads its standard output and error
/// concurrently (so neither pipe can fill up and block it), and kills it with its process group
/// after the timeout. Foundation's `Process` starts the child in a process group of its own
/// (POSIX_SPAWN_SETPGROUP), so grandchildren holding the pipes die with it.
private enum ChildProcess {
    static func run(executable: URL, arguments: [String], timeout: Double) throws(GrammarCheckerError) -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONIOENCODING"] = "utf-8"   // the JSON is printed with ensure_ascii=False
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        let start = DispatchTime.now()
        do {
            try process.run()
        } catch {
            throw .failed(status: -1, message: "could not start \(executable.path): \(error.localizedDescription)")
        }
        let outReader = PipeReader(stdout.fileHandleForReading)
        let errReader = PipeReader(stderr.fileHandleForReading)

        let deadline = start + .nanoseconds(Int(max(timeout, 0) * 1e9))
        if exited.wait(timeout: deadline) == .timedOut {
            let pid = process.processIdentifier
            if pid > 0 {
                if getpgid(pid) == pid { kill(-pid, SIGKILL) } else { kill(pid, SIGKILL) }
            }
            _ = exited.wait(timeout: .now() + 5)
            _ = outReader.wait(until: .now() + 2)
            _ = errReader.wait(until: .now() + 2)
            throw .timeout(seconds: timeout)
        }
        // The child is gone; its pipes close unless a grandchild still holds them.
        let grace = max(deadline, .now() + 2)
        guard let output = outReader.wait(until: grace), let errors = errReader.wait(until: grace) else {
            let pid = process.processIdentifier
            if pid > 0 { kill(-pid, SIGKILL) }
            throw .timeout(seconds: timeout)
        }
        if process.terminationReason == .uncaughtSignal {
            throw .failed(status: process.terminationStatus,
                          message: "killed by signal \(process.terminationStatus)")
        }
        if process.terminationStatus != 0 {
            throw .failed(status: process.terminationStatus, message: summary(ofStandardError: errors))
        }
        return output
    }

    /// The first non-empty line of standard error, or the last one for a Python traceback.
    static func summary(ofStandardError data: Data) -> String {
        let lines = String(decoding: data, as: UTF8.self)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let first = lines.first else { return "" }
        let line = first.hasPrefix("Traceback") ? lines.last ?? first : first
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            let bytes = (try? handle.readToEnd()) ?? Data()
            lock.lock()
            data = bytes
            lock.unlock()
            done.signal()
        }
        thread.start()
    }

    /// Everything read, or nil if the pipe is still open at the deadline.
    func wait(until deadline: DispatchTime) -> Data? {
        guard done.wait(timeout: deadline) == .success else { return nil }
        done.signal()  // later waits return at once
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
