// The grammar gate: Grammalecte (Debian python3-grammalecte 2.1.2, GPL-3) in one long-lived
// worker process, one JSON line in and one out per paragraph. ../shared/Docs/domain.md §3.
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
    /// Grammalecte is not installed: the Python interpreter (`/usr/bin/python3`, or the given
    /// executable) is missing, or it has no `grammalecte` module (Debian `python3-grammalecte`).
    case unavailable
    /// The worker could not be started (status -1, `message` says why), or it ended (exit
    /// status, or 128 + the signal number) during start-up and again after one restart, or
    /// twice while checking one batch. `message` is the worker's standard error summed up
    /// (first line, or a Python traceback's last line, 200 characters at most) when it ended
    /// before answering any text, else how it ended: never a text.
    case failed(status: Int32, message: String)
    /// The worker was alive but gave no answer line for this many seconds (or was not ready
    /// within its start-up allowance); it was killed with its process group.
    case timeout(seconds: Double)
    /// A line from the worker is not Grammalecte's JSON, or answers another text than the one
    /// sent; the worker was stopped (the next check starts a new one).
    case unreadableOutput(reason: String)
    /// Grammalecte raised this Python exception (class name only) on a text; the worker
    /// survives, the batch fails.
    case exception(name: String)

    public var description: String {
        switch self {
        case .unavailable:
            "Grammalecte is not installed (apt-get install python3-grammalecte, for /usr/bin/python3); "
                + "without it no text can pass the grammar check"
        case .failed(let status, let message):
            "the Grammalecte worker failed (status \(status))" + (message.isEmpty ? "" : ": \(message)")
        case .timeout(let seconds):
            "the Grammalecte worker gave no answer within \(Self.format(seconds)) s and was stopped"
        case .unreadableOutput(let reason):
            "the Grammalecte worker gave unreadable output: \(reason)"
        case .exception(let name):
            "Grammalecte raised \(name) on a text (the text is not shown)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Grammalecte's grammar and spelling check of French paragraphs, run in one long-lived worker
/// process per checker: `/usr/bin/python3 -I -c WORKER` (`workerScript`, a JSON-lines loop on
/// Debian's `python3-grammalecte` module), fed one paragraph at a time on its standard input.
///
/// The worker starts on the first `check` (about 0.3 s: Grammalecte loads its rules and
/// dictionary), answers every later paragraph in about 9 ms, and stops on `close()` or when the
/// checker is released. It calls what `grammalecte-cli -f FILE -j` calls, with the same
/// options, so the answers are the CLI's: `GrammarChecker("fr")`, `setOptions({"html": True,
/// "latex": True})`, then `getParagraphErrorsAsJSON(i, line)` for each paragraph, where `line`
/// ends with `\n` as a line the CLI reads from its file does. What was found while writing this
/// (Grammalecte 2.1.2):
/// - Line breaks: the CLI splits its file at `\n`, `\r` and `\r\n`, so each CR and LF inside a
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
/// - Speed (2-core Intel Xeon virtual machine; Grammalecte is single-threaded): start-up about
///   0.3 s once per worker, then about 9 ms per paragraph of about 64 words. The former design
///   (one `grammalecte-cli` per batch) paid the start-up on every batch: a nightly run checks
///   texts one by one, so it paid it for every text. Spelling suggestions cost about 20 ms per
///   unknown word, hence off by default.
///
/// Failures (`GrammarCheckerError`): a worker that dies is restarted once per `check`; dying
/// again fails the check. A worker that is alive but silent for `timeout` seconds is killed.
/// Every failure throws: no paragraph passes without Grammalecte's answer.
///
/// Thread safety: one worker, one check at a time (a lock); concurrent checks wait their turn.
///
/// - Warning: the texts may hold a child's first name. They go to the worker's standard input
///   only (never a file, never an argument), and no error, log line or exception message quotes
///   them: the worker reports a Python exception by its class name only.
public final class GrammarChecker: @unchecked Sendable {
    /// The Python interpreter that runs the worker: the one given to `init`, else `locate()`'s;
    /// nil when none was found.
    public let executable: URL?
    /// Seconds the worker, alive, may go without answering (no answer line) before it is
    /// killed: a lack of progress, not a budget for the batch (default 60; an answer takes about
    /// 9 ms, so this only fires when the worker hangs).
    public let timeout: Double
    /// Seconds the worker may take to load Grammalecte before its first answer (default 60;
    /// about 0.3 s on an idle machine).
    public let startupTimeout: Double
    /// Whether spelling errors carry suggestions (about 20 ms per unknown word).
    public let spellingSuggestions: Bool

    private let lock = NSLock()
    private var worker: ChildProcess?
    /// Whether the current worker said it is ready.
    private var greeted = false
    /// Texts sent to the current worker (0: it has seen none, so its standard error cannot
    /// quote one).
    private var sent = 0
    /// The number of the next request (`iParagraph` in the answer).
    private var nextRequest = 1

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

    /// Creates a checker; no process starts until the first `check`.
    ///
    /// - Parameters:
    ///   - executable: the Python 3 interpreter that has Debian's `grammalecte` module; nil uses
    ///     `locate()` (`/usr/bin/python3`). Tests pass a script that speaks the worker's
    ///     protocol (it is run with the arguments `-I -c SCRIPT`, which it may ignore).
    ///   - timeout: seconds the worker may go without answering, while alive (default 60).
    ///   - startupTimeout: seconds the worker may take to be ready (default 60).
    ///   - spellingSuggestions: ask for suggestions on spelling errors (slow).
    public init(executable: URL? = nil, timeout: Double = 60, startupTimeout: Double = 60,
                spellingSuggestions: Bool = false) {
        self.executable = executable ?? Self.locate()
        self.timeout = timeout
        self.startupTimeout = startupTimeout
        self.spellingSuggestions = spellingSuggestions
    }

    deinit { stopWorker() }

    /// Whether Grammalecte can run: the interpreter exists and finds the `grammalecte` module.
    ///
    /// This starts the interpreter once to look for the module (about 30 ms; no Grammalecte
    /// loading), with a 30 s limit.
    ///
    /// - Parameter executable: a specific interpreter, or nil for `locate()`'s.
    /// - Returns: `true` if the module is there.
    public static func isAvailable(executable: URL? = nil) -> Bool {
        guard let url = executable ?? locate(), isExecutableFile(url) else { return false }
        let probe = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('grammalecte') else 3)"
        guard let output = try? ChildProcess.run(executable: url.path, arguments: ["-I", "-c", probe], timeout: 30) else {
            return false
        }
        return output.termination == .exited(0)
    }

    /// `/usr/bin/python3` if it is executable, else nil.
    ///
    /// Debian's `python3-grammalecte` installs into `/usr/lib/python3/dist-packages`, which only
    /// the system interpreter reads; a `python3` found first on `PATH` (pyenv, a venv) usually
    /// lacks it, so `PATH` is not searched.
    public static func locate() -> URL? {
        let system = URL(fileURLWithPath: "/usr/bin/python3")
        return isExecutableFile(system) ? system : nil
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
    /// Starts the worker if none runs. Each paragraph is one request line and one answer line;
    /// a worker that dies is restarted once per call and the unanswered paragraph sent again.
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

        lock.lock()
        defer { lock.unlock() }
        var restarted = false
        var result: [[GrammarIssue]] = []
        result.reserveCapacity(paragraphs.count)
        for paragraph in paragraphs {
            // Every line-breaking scalar becomes one space.
            var scalars = String.UnicodeScalarView()
            for scalar in paragraph.unicodeScalars {
                scalars.append(scalar == "\n" || scalar == "\r" ? " " : scalar)
            }
            let line = String(scalars)
            while true {
                do {
                    let answer = try ask(line, executable: executable)
                    result.append(try Self.issues(in: answer, paragraph: paragraph, accepted: accepted))
                    break
                } catch {
                    switch error {
                    case .died(let termination, let message):
                        stopWorker()
                        if restarted { throw .failed(status: termination.status, message: message) }
                        restarted = true
                    case .error(let failure):
                        // After an exception the worker is still in step; after anything else
                        // it is not trusted any more.
                        if case .exception = failure {} else { stopWorker() }
                        throw failure
                    }
                }
            }
        }
        return result
    }

    /// Starts the worker now, without waiting for it: Grammalecte loads (about 0.5 s of CPU)
    /// while the caller does something else, and the first `check` only waits for what is left.
    /// Does nothing if a worker runs; a failure to start is reported by the next `check`.
    public func prepare() {
        guard let executable, Self.isExecutableFile(executable) else { return }
        lock.lock()
        defer { lock.unlock() }
        _ = try? spawned(executable)
    }

    /// Stops the worker (SIGKILL to its process group) and reaps it. A later `check` starts a
    /// new one. Safe to call twice; `deinit` calls it.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        stopWorker()
    }

    /// The running worker's process id, if any (for tests).
    var workerProcessID: pid_t? {
        lock.lock()
        defer { lock.unlock() }
        return worker?.processIdentifier
    }

    // MARK: - The worker

    /// The worker, run as `python3 -I -c workerScript [-wss]`: it loads Grammalecte as
    /// `grammalecte-cli` does, checks one sentence (the first check fills Grammalecte's caches,
    /// about 0.15 s, better spent while `prepare()`'s caller is busy), says `{"ready": VERSION}`
    /// (or `{"unavailable": EXCEPTION}` and exits 3 without the module), then answers each
    /// request line `{"i": N, "text": T}` with one line, `getParagraphErrorsAsJSON(N, T + "\n")`
    /// (`{"iParagraph": N, "lGrammarErrors": [...], "lSpellingErrors": [...]}`), or
    /// `{"iParagraph": N, "error": EXCEPTION}`. Its real standard output is a duplicate of
    /// descriptor 1, and descriptor 1 then points to standard error, so that a stray `print`
    /// cannot break the protocol. `-I` (isolated mode) keeps the current directory and `PYTHON*`
    /// variables out of its module search. It ends at end of file.
    static let workerScript = """
        import json, os, sys
        out = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        def send(line):
            out.write(line.encode("utf-8") + b"\\n")
            out.flush()
        try:
            import grammalecte
        except ImportError as e:
            send(json.dumps({"unavailable": type(e).__name__}))
            sys.exit(3)
        gc = grammalecte.GrammarChecker("fr")
        gc.gce.setOptions({"html": True, "latex": True})
        wss = "-wss" in sys.argv[1:]
        gc.getParagraphErrorsAsJSON(0, "Les enfants sont arrivés.\\n")
        send(json.dumps({"ready": gc.gce.version}))
        for raw in sys.stdin.buffer:
            i = 0
            try:
                request = json.loads(raw)
                i = request["i"]
                answer = gc.getParagraphErrorsAsJSON(i, request["text"] + "\\n", bSpellSugg=wss)
            except Exception as e:
                answer = json.dumps({"iParagraph": i, "error": type(e).__name__})
            send(answer)
        """

    /// Why one request got no answer.
    private enum RequestFailure: Error {
        /// The worker ended (restart it once); `message` is safe to show.
        case died(ChildProcess.Termination, message: String)
        /// Anything else: thrown as is.
        case error(GrammarCheckerError)
    }

    /// Sends one paragraph (already on one line) and returns the worker's answer line.
    /// Call with `lock` held.
    private func ask(_ line: String, executable: URL) throws(RequestFailure) -> Data {
        let child = try running(executable)
        let number = nextRequest
        nextRequest += 1
        let request: Data
        do {
            request = try JSONEncoder().encode(Request(i: number, text: line)) + Data("\n".utf8)
        } catch {
            throw .error(.unreadableOutput(reason: "the text cannot be encoded as JSON"))
        }
        sent += 1
        do {
            try child.write(request, timeout: timeout)
        } catch .brokenPipe {
            throw died(child)
        } catch .timeout {
            throw .error(.timeout(seconds: timeout))
        } catch {
            throw .error(.failed(status: -1, message: "\(error)"))
        }
        let answer: Data?
        do {
            answer = try child.readLine(timeout: timeout)
        } catch .timeout {
            throw .error(.timeout(seconds: timeout))
        } catch {
            throw .error(.failed(status: -1, message: "\(error)"))
        }
        guard let answer else { throw died(child) }
        // A wrong number means the worker is out of step; a missing one is reported, with a
        // reason, by `issues(in:)`.
        if let got = Self.answerNumber(answer), got != number {
            throw .error(.unreadableOutput(reason: "answer \(got) to request \(number)"))
        }
        return answer
    }

    private struct Request: Encodable {
        var i: Int
        var text: String
    }

    /// The worker, started if none runs, ready to take a request. Call with `lock` held.
    private func running(_ executable: URL) throws(RequestFailure) -> ChildProcess {
        let child = try spawned(executable)
        if greeted { return child }
        let line: Data?
        do {
            line = try child.readLine(timeout: startupTimeout)
        } catch .timeout {
            throw .error(.timeout(seconds: startupTimeout))
        } catch {
            throw .error(.failed(status: -1, message: "\(error)"))
        }
        guard let line else { throw died(child) }
        let hello = try? JSONDecoder().decode(Hello.self, from: line)
        if hello?.ready != nil {
            greeted = true
            return child
        }
        if hello?.unavailable != nil { throw .error(.unavailable) }
        throw .error(.unreadableOutput(reason: "not the worker's greeting (\(Self.shape(line)))"))
    }

    /// The worker, started if none runs, maybe still loading. Call with `lock` held.
    private func spawned(_ executable: URL) throws(RequestFailure) -> ChildProcess {
        if let worker { return worker }
        var arguments = ["-I", "-c", Self.workerScript]
        if spellingSuggestions { arguments.append("-wss") }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable.path, arguments: arguments,
                                     standardInput: .pipe, standardOutput: .pipe, standardError: .pipe,
                                     standardErrorLimit: 16_384)
        } catch .spawnFailed(_, let code, _) where code == ENOENT {
            throw .error(.unavailable)
        } catch {
            throw .error(.failed(status: -1, message: "\(error)"))
        }
        worker = child
        greeted = false
        sent = 0
        nextRequest = 1
        return child
    }

    private struct Hello: Decodable {
        var ready: String?
        var unavailable: String?
    }

    /// The worker ended (end of file on its output): how, reaped.
    private func died(_ child: ChildProcess) -> RequestFailure {
        let termination = child.wait(timeout: 2) ?? child.kill()
        // A worker that has seen no text cannot quote one: only then is its standard error shown.
        let message = sent == 0 ? Self.standardErrorSummary(child.standardErrorData) : ""
        return .died(termination, message: message.isEmpty ? termination.description : message)
    }

    /// Stops the worker and reaps it: SIGKILL to its process group at once (an idle worker
    /// holds nothing to save; letting Python tear down its dictionaries takes 0.1 s). Call with
    /// `lock` held (or from `deinit`).
    private func stopWorker() {
        guard let child = worker else { return }
        worker = nil
        greeted = false
        child.closeStandardInput()
        child.kill()
    }

    // MARK: - Answers

    private struct Answer: Decodable {
        var iParagraph: Int
        var lGrammarErrors: [GrammarError]?
        var lSpellingErrors: [SpellingError]?
        var error: String?
    }

    private struct Number: Decodable {
        var iParagraph: Int
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

    private static func answerNumber(_ line: Data) -> Int? {
        (try? JSONDecoder().decode(Number.self, from: line))?.iParagraph
    }

    /// What a line that is not an answer looks like, without quoting it: an answer's messages
    /// quote the text, which may hold a child's name.
    private static func shape(_ line: Data) -> String {
        let json = (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])) != nil
        return "\(line.count) bytes, " + (json ? "JSON without the expected fields" : "not JSON")
    }

    /// The issues of one answer line, for `paragraph` as the caller gave it.
    private static func issues(in line: Data, paragraph: String, accepted: Set<String>)
        throws(RequestFailure) -> [GrammarIssue] {
        let answer: Answer
        do {
            answer = try JSONDecoder().decode(Answer.self, from: line)
        } catch {
            throw .error(.unreadableOutput(reason: "not Grammalecte's answer (\(shape(line)))"))
        }
        if let name = answer.error { throw .error(.exception(name: name)) }
        guard let grammar = answer.lGrammarErrors, let spelling = answer.lSpellingErrors else {
            throw .error(.unreadableOutput(reason: "answer \(answer.iParagraph) has no error lists"))
        }
        let length = paragraph.unicodeScalars.count
        var issues: [GrammarIssue] = []
        for error in grammar {
            guard 0 <= error.nStart, error.nStart <= error.nEnd else {
                throw .error(.unreadableOutput(reason: "span \(error.nStart)..<\(error.nEnd) in answer \(answer.iParagraph)"))
            }
            if isStylistic(type: error.sType, ruleID: error.sRuleId) { continue }
            issues.append(GrammarIssue(
                ruleID: error.sRuleId, type: error.sType,
                start: min(error.nStart, length), end: min(error.nEnd, length),
                message: error.sMessage, suggestions: error.aSuggestions ?? [], isSpelling: false))
        }
        for error in spelling {
            guard 0 <= error.nStart, error.nStart <= error.nEnd else {
                throw .error(.unreadableOutput(reason: "span \(error.nStart)..<\(error.nEnd) in answer \(answer.iParagraph)"))
            }
            if accepted.contains(error.sValue.precomposedStringWithCanonicalMapping) { continue }
            issues.append(GrammarIssue(
                ruleID: GrammarIssue.spellingType, type: GrammarIssue.spellingType,
                start: min(error.nStart, length), end: min(error.nEnd, length),
                message: "Mot inconnu du dictionnaire.", suggestions: error.aSuggestions ?? [],
                isSpelling: true))
        }
        issues.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        return issues
    }

    /// The first non-empty line of a child's standard error, or the last one for a Python
    /// traceback (which names the exception), cut to 200 characters.
    static func standardErrorSummary(_ data: Data) -> String {
        let lines = String(decoding: data, as: UTF8.self)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let first = lines.first else { return "" }
        let line = first.hasPrefix("Traceback") ? lines.last ?? first : first
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    fileprivate static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
    }
}
