import DicteeCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lexique 3.83 (Boris New & Christophe Pallier, lexique.org, CC BY-SA 4.0) as a memory-mapped
/// table: every row of `Lexique383.txt` (142,694 rows, 125,653 written forms), looked up by binary
/// search over the sorted forms. Loading maps the 8.3 MB file and checks its offsets (about 0.5 ms in
/// a release build and 18 ms in a debug build, file in the page cache); nothing is parsed or copied.
/// A lookup costs a binary search (17 steps) and the decoding of the entries it returns.
///
/// The file is written by `Scripts/lexicon/build-lexicon.py` (run by `Scripts/lexicon/install-lexicon`,
/// which `Scripts/setup` calls) to `Data/lexique-3.83.bin`. Layout, version 1, little-endian, every
/// section 4-byte aligned, offsets in bytes from the start of the file (the script's docstring is
/// the reference):
///
/// - header, 64 bytes: magic `DLEXIQUE`, then u32 version (1), header size (64), file size,
///   form count F, row count R, tag count T, form index offset, form blob offset and size, rows
///   offset, string pool offset and size, tag table offset, reserved.
/// - form index: F + 1 pairs (u32 start of the form in the form blob, u32 first row); forms are
///   unique and sorted by UTF-8 bytes; form i's rows are `first(i) ..< first(i + 1)`; pair F is
///   the sentinel (blob size, R).
/// - form blob: the forms' bytes, concatenated.
/// - rows, 36 bytes each: u32 lemma, phon and infover offsets into the string pool; u8 lengths of
///   the three; u8 cgram code (index into the tag table, 0 = none); u8 gender (0 none, 1 m, 2 f);
///   u8 number (0 none, 1 s, 2 p); u8 flags; u8 reserved; f32 freqlemfilms2, freqlemlivres,
///   freqfilms2, freqlivres (per million words).
/// - string pool: UTF-8 strings without separators; infover is Lexique's value without quotes.
/// - tag table: T entries of 8 ASCII bytes, NUL-padded: the cgram tag of each code.
///
/// Every offset and length is checked against the file at load, so a loaded table never reads out
/// of bounds. Two corrections are made by the build script: Lexique's `VRAI`/`FAUX` (a
/// spreadsheet's booleans) are stored as `vrai`/`faux`, and the 8 rows without cgram take the one
/// category of Lexique's `cgramortho` column.
///
/// Immutable and safe to share between threads. The mapping lives as long as the object.
///
/// - Warning: the file must not be truncated in place while it is mapped (reads past the new end
///   would fault); the build script replaces it atomically, by renaming a new file over it.
public final class Lexicon: @unchecked Sendable {
    /// File name of the table in `Data/` or in the XDG data directory.
    public static let fileName = "lexique-3.83.bin"

    static let magic = Array("DLEXIQUE".utf8)
    static let version: UInt32 = 1
    static let headerSize = 64
    static let rowSize = 36
    static let tagWidth = 8

    private let base: UnsafeRawPointer
    private let mappedSize: Int
    private let formIndex: UnsafeRawPointer
    private let formBlob: UnsafeRawPointer
    private let rows: UnsafeRawPointer
    private let pool: UnsafeRawPointer
    /// Part of speech of each cgram code; `nil` for code 0 and for tags this build does not know.
    private let partsOfSpeech: [PartOfSpeech?]

    /// Number of rows (Lexique data lines, one reading of one form each): 142,694 for Lexique 3.83.
    public let count: Int
    /// Number of distinct written forms: 125,653 for Lexique 3.83.
    public let formCount: Int
    /// The forms with a `NOM` or `ADJ` row, without accents and in lower case
    /// (`isCommonNounOrAdjective` for a word written without its accents); built on first use.
    private var foldedCommonWords: Set<String>?
    /// Every form, folded, built on first use (`isKnownWord`); guarded by `foldedCommonWordsLock`.
    private var foldedForms: Set<String>?
    private let foldedCommonWordsLock = NSLock()

    /// Maps and checks a table written by `Scripts/lexicon/build-lexicon.py`.
    ///
    /// - Parameter url: a file URL, usually from ``locate(environment:executable:)``.
    /// - Throws: ``LexiconError``: `.missing` when there is no file (run Scripts/setup), `.unreadable`
    ///   when it cannot be opened or mapped, `.notALexicon` for another kind of file,
    ///   `.unsupportedVersion`, `.truncated` when the file is shorter than its header says, and
    ///   `.corrupt` when an offset or a length points outside the file. Never crashes on a bad file.
    public init(contentsOf url: URL) throws(LexiconError) {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { throw .missing(path: path) }
            throw .unreadable(path: path, reason: Self.systemMessage(code))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .unreadable(path: path, reason: Self.systemMessage(errno))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        guard size >= Self.headerSize else {
            throw .truncated(path: path, expectedBytes: Self.headerSize, actualBytes: size)
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
              mapped != MAP_FAILED
        else {
            throw .unreadable(path: path, reason: Self.systemMessage(errno))
        }
        let base = UnsafeRawPointer(mapped)
        let layout: Layout
        do {
            layout = try Layout(base: base, size: size, path: path)
        } catch {
            munmap(mapped, size)
            throw error
        }
        self.base = base
        self.mappedSize = size
        self.formIndex = base + layout.formIndexOffset
        self.formBlob = base + layout.formBlobOffset
        self.rows = base + layout.rowsOffset
        self.pool = base + layout.poolOffset
        self.partsOfSpeech = layout.partsOfSpeech
        self.count = layout.rowCount
        self.formCount = layout.formCount
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), mappedSize)
    }

    /// Every row of Lexique for a written word: one entry per reading, in Lexique's order (`a`: the
    /// noun, the auxiliary avoir, the verb avoir).
    ///
    /// The word is looked up as written, then lower-cased (`Maison` finds `maison`). Before that,
    /// typographic apostrophes (U+2019, U+02BC) become `'`, `œ`/`æ` become `oe`/`ae` (Lexique 3.83
    /// writes `coeur`, `soeur`), and decomposed accents are composed (NFC). The entries carry
    /// Lexique's own form (`maison`, `aujourd'hui`, `coeur`).
    ///
    /// - Parameter word: one token, without surrounding spaces or punctuation.
    /// - Returns: the entries, empty for a word Lexique does not know (proper names such as Léa,
    ///   misspellings). Rows whose cgram this build cannot name are left out (none in 3.83).
    public func entries(for word: String) -> [LexicalEntry] {
        guard let form = formIndex(of: word) else { return [] }
        let range = rowRange(ofForm: form)
        let formText = string(formBlob, range: formRange(form))
        var result: [LexicalEntry] = []
        result.reserveCapacity(range.count)
        for row in range {
            if let entry = entry(row: row, form: formText) { result.append(entry) }
        }
        return result
    }

    /// Whether Lexique has the word (same matching as ``entries(for:)``), without decoding rows.
    public func contains(_ word: String) -> Bool {
        formIndex(of: word) != nil
    }

    /// Where the table is: `$DICTEE_LEXICON` when set (even if it does not exist, so that the error
    /// names it); else `Data/lexique-3.83.bin` in the executable's directory or the nearest parent
    /// that has one (so `.build/debug/dictee` and the test runner find the checkout's `Data/`);
    /// else `$XDG_DATA_HOME/dictee/lexique-3.83.bin` (absolute `XDG_DATA_HOME` only) or
    /// `~/.local/share/dictee/lexique-3.83.bin`, when that file exists.
    ///
    /// - Parameters:
    ///   - environment: the process environment (`DICTEE_LEXICON`, `XDG_DATA_HOME`, `HOME`).
    ///   - executable: the running executable's file URL, or `nil` to skip the walk up.
    /// - Returns: the file to open, or `nil` when none was found (then run Scripts/setup).
    public static func locate(environment: [String: String], executable: URL?) -> URL? {
        if let given = environment["DICTEE_LEXICON"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        let files = FileManager.default
        if let executable {
            var directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            while true {
                let candidate = directory.appendingPathComponent("Data").appendingPathComponent(fileName)
                if files.fileExists(atPath: candidate.path) { return candidate }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path || directory.path == "/" { break }
                directory = parent
            }
        }
        // XDG Base Directory: a relative XDG_DATA_HOME is invalid and ignored.
        let installed = URL(fileURLWithPath: XDGFolder.data.dictee(environment)).appendingPathComponent(fileName)
        return files.fileExists(atPath: installed.path) ? installed : nil
    }

    // MARK: - Lookup

    /// The form's index for a word, trying the exact (normalized) spelling, then lower case.
    private func formIndex(of word: String) -> Int? {
        var key = word
        // Bytes of scalars beyond Latin-1 (lead byte 0xC4 and up) or of æ/Æ (C3 A6, C3 86).
        if key.utf8.contains(where: { $0 >= 0xC4 || $0 == 0xA6 || $0 == 0x86 }) {
            key = Self.normalized(key)
        }
        if let found = search(key) { return found }
        let lower = key.lowercased()
        return lower == key ? nil : search(lower)
    }

    /// Apostrophes, ligatures and NFC, for the rare words with characters beyond Latin-1.
    static func normalized(_ word: String) -> String {
        var scalars = String.UnicodeScalarView()
        var needsComposition = false
        for scalar in word.unicodeScalars {
            switch scalar.value {
            case 0x2019, 0x02BC: scalars.append("'")
            case 0x0153: scalars.append(contentsOf: "oe".unicodeScalars)
            case 0x0152: scalars.append(contentsOf: "OE".unicodeScalars)
            case 0x00E6: scalars.append(contentsOf: "ae".unicodeScalars)
            case 0x00C6: scalars.append(contentsOf: "AE".unicodeScalars)
            default:
                if scalar.value >= 0x0300 { needsComposition = true }
                scalars.append(scalar)
            }
        }
        let result = String(scalars)
        return needsComposition ? result.precomposedStringWithCanonicalMapping : result
    }

    /// Binary search of the UTF-8 bytes among the sorted forms.
    private func search(_ key: String) -> Int? {
        var key = key
        return key.withUTF8 { bytes -> Int? in
            guard !bytes.isEmpty else { return nil }
            var low = 0
            var high = formCount
            while low < high {
                let middle = (low + high) >> 1
                let form = formRange(middle)
                let order = Self.compare(bytes, UnsafeRawBufferPointer(
                    start: formBlob + form.lowerBound, count: form.count))
                if order == 0 { return middle }
                if order > 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// Unsigned byte order, then length: the order the build script sorts by.
    private static func compare(_ key: UnsafeBufferPointer<UInt8>, _ form: UnsafeRawBufferPointer) -> Int {
        let shared = min(key.count, form.count)
        if shared > 0 {
            let order = memcmp(key.baseAddress!, form.baseAddress!, shared)
            if order != 0 { return Int(order) }
        }
        return key.count - form.count
    }

    // MARK: - Reading the table

    private func u32(_ pointer: UnsafeRawPointer, _ offset: Int) -> Int {
        Int(UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    private func formRange(_ form: Int) -> Range<Int> {
        u32(formIndex, form * 8) ..< u32(formIndex, form * 8 + 8)
    }

    private func rowRange(ofForm form: Int) -> Range<Int> {
        u32(formIndex, form * 8 + 4) ..< u32(formIndex, form * 8 + 12)
    }

    private func string(_ section: UnsafeRawPointer, range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(start: section + range.lowerBound, count: range.count),
               as: UTF8.self)
    }

    private func entry(row: Int, form: String) -> LexicalEntry? {
        let record = rows + row * Self.rowSize
        guard let partOfSpeech = partsOfSpeech[Int(record.load(fromByteOffset: 15, as: UInt8.self))]
        else { return nil }
        func text(_ field: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: pool + u32(record, field * 4),
                                   count: Int(record.load(fromByteOffset: 12 + field, as: UInt8.self)))
        }
        func frequency(_ field: Int) -> Float {
            Float(bitPattern: UInt32(littleEndian: record.loadUnaligned(
                fromByteOffset: 20 + field * 4, as: UInt32.self)))
        }
        let gender: Gender? = switch record.load(fromByteOffset: 16, as: UInt8.self) {
        case 1: .masculine
        case 2: .feminine
        default: nil
        }
        let number: PhraseGrammar.Number? = switch record.load(fromByteOffset: 17, as: UInt8.self) {
        case 1: .singular
        case 2: .plural
        default: nil
        }
        return LexicalEntry(
            form: form,
            lemma: String(decoding: text(0), as: UTF8.self),
            partOfSpeech: partOfSpeech,
            gender: gender,
            number: number,
            verbForms: Self.verbForms(text(2)),
            phonology: String(decoding: text(1), as: UTF8.self),
            formFrequencyBooks: frequency(3),
            formFrequencyFilms: frequency(2),
            lemmaFrequencyBooks: frequency(1),
            lemmaFrequencyFilms: frequency(0)
        )
    }

    /// Lexique's infover (`ind:pre:3s;ind:pre:1s;`, repeats such as `inf;;inf;` included) as
    /// distinct readings in order; unknown readings are dropped.
    static func verbForms(_ bytes: UnsafeRawBufferPointer) -> [VerbForm] {
        var result: [VerbForm] = []
        var start = 0
        for end in 0 ... bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ";") {
            defer { start = end + 1 }
            guard end > start, let form = verbForm(UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
            else { continue }
            if !result.contains(form) { result.append(form) }
        }
        return result
    }

    /// One reading, `mood[:tense[:person]]`, read from bytes (small strings: no allocation).
    private static func verbForm(_ bytes: UnsafeRawBufferPointer) -> VerbForm? {
        let colon = UInt8(ascii: ":")
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        let moodEnd = bytes.firstIndex(of: colon) ?? bytes.count
        guard let mood = VerbForm.Mood(rawValue: text(0 ..< moodEnd)) else { return nil }
        guard moodEnd < bytes.count else { return VerbForm(mood: mood, tense: nil, person: nil) }
        let tenseEnd = bytes[(moodEnd + 1)...].firstIndex(of: colon) ?? bytes.count
        guard let tense = VerbForm.Tense(rawValue: text(moodEnd + 1 ..< tenseEnd)) else { return nil }
        guard tenseEnd < bytes.count else { return VerbForm(mood: mood, tense: tense, person: nil) }
        return VerbForm(mood: mood, tense: tense, person: text(tenseEnd + 1 ..< bytes.count))
    }

    private static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// The header and every offset of a table, checked against the file's size.
private struct Layout {
    var formCount: Int
    var rowCount: Int
    var formIndexOffset: Int
    var formBlobOffset: Int
    var rowsOffset: Int
    var poolOffset: Int
    var partsOfSpeech: [PartOfSpeech?]

    init(base: UnsafeRawPointer, size: Int, path: String) throws(LexiconError) {
        func u32(_ offset: Int) -> Int {
            Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard Lexicon.magic.indices.allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == Lexicon.magic[$0] })
        else { throw .notALexicon(path: path) }
        let version = u32(8)
        guard version == Lexicon.version else {
            throw .unsupportedVersion(path: path, found: version, expected: Int(Lexicon.version))
        }
        let declaredSize = u32(16)
        guard u32(12) == Lexicon.headerSize else { throw .corrupt(path: path, reason: "header size \(u32(12))") }
        guard declaredSize <= size else {
            throw .truncated(path: path, expectedBytes: declaredSize, actualBytes: size)
        }
        guard declaredSize == size else {
            throw .corrupt(path: path, reason: "\(size) bytes where the header says \(declaredSize)")
        }
        formCount = u32(20)
        rowCount = u32(24)
        let tagCount = u32(28)
        formIndexOffset = u32(32)
        formBlobOffset = u32(36)
        let formBlobSize = u32(40)
        rowsOffset = u32(44)
        poolOffset = u32(48)
        let poolSize = u32(52)
        let tagsOffset = u32(56)

        func section(_ name: String, _ offset: Int, _ length: Int) throws(LexiconError) {
            guard offset >= Lexicon.headerSize, offset % 4 == 0, length <= size - offset else {
                throw .corrupt(path: path, reason: "\(name) (\(length) bytes at \(offset)) outside the file")
            }
        }
        try section("form index", formIndexOffset, (formCount + 1) * 8)
        try section("form blob", formBlobOffset, formBlobSize)
        try section("rows", rowsOffset, rowCount * Lexicon.rowSize)
        try section("string pool", poolOffset, poolSize)
        try section("tag table", tagsOffset, tagCount * Lexicon.tagWidth)
        guard tagCount >= 1, tagCount <= 256 else {
            throw .corrupt(path: path, reason: "\(tagCount) cgram tags")
        }

        // Forms: strictly increasing byte starts ending at the blob's size; every form has rows.
        let index = base + formIndexOffset
        var previousStart = u32(formIndexOffset)
        var previousRow = u32(formIndexOffset + 4)
        guard previousStart == 0, previousRow == 0 else {
            throw .corrupt(path: path, reason: "form index does not start at 0")
        }
        for form in stride(from: 1, through: formCount, by: 1) {
            let start = Int(UInt32(littleEndian: index.loadUnaligned(fromByteOffset: form * 8, as: UInt32.self)))
            let row = Int(UInt32(littleEndian: index.loadUnaligned(fromByteOffset: form * 8 + 4, as: UInt32.self)))
            guard start > previousStart, row > previousRow else {
                throw .corrupt(path: path, reason: "form index entry \(form) out of order")
            }
            previousStart = start
            previousRow = row
        }
        guard previousStart == formBlobSize, previousRow == rowCount else {
            throw .corrupt(path: path, reason: "form index does not end at the blob's size and the row count")
        }

        // Tags, by name: a file with a tag this build does not know still loads (its rows are skipped).
        partsOfSpeech = (0 ..< tagCount).map { code in
            let bytes = UnsafeRawBufferPointer(start: base + tagsOffset + code * Lexicon.tagWidth,
                                               count: Lexicon.tagWidth)
            let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return PartOfSpeech(rawValue: name)
        }

        // Rows: strings inside the pool, codes in range.
        let rows = base + rowsOffset
        for row in 0 ..< rowCount {
            let record = rows + row * Lexicon.rowSize
            for field in 0 ..< 3 {
                let offset = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: field * 4, as: UInt32.self)))
                let length = Int(record.load(fromByteOffset: 12 + field, as: UInt8.self))
                guard offset <= poolSize, length <= poolSize - offset else {
                    throw .corrupt(path: path, reason: "row \(row) points outside the string pool")
                }
            }
            guard Int(record.load(fromByteOffset: 15, as: UInt8.self)) < tagCount,
                  record.load(fromByteOffset: 16, as: UInt8.self) <= 2,
                  record.load(fromByteOffset: 17, as: UInt8.self) <= 2
            else { throw .corrupt(path: path, reason: "row \(row) has an unknown code") }
        }
    }
}

/// Why the lexicon table could not be loaded. Messages are lower case and name the file.
public enum LexiconError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file exists but could not be opened or mapped (permissions, a directory).
    case unreadable(path: String, reason: String)
    /// The file does not start with the table's magic bytes: not written by build-lexicon.py.
    case notALexicon(path: String)
    /// Written by another version of build-lexicon.py.
    case unsupportedVersion(path: String, found: Int, expected: Int)
    /// Shorter than its header says (an interrupted copy).
    case truncated(path: String, expectedBytes: Int, actualBytes: Int)
    /// An offset, a length or a code points outside the file or its sections.
    case corrupt(path: String, reason: String)

    /// The file concerned.
    public var path: String {
        switch self {
        case .missing(let path), .unreadable(let path, _), .notALexicon(let path),
             .unsupportedVersion(let path, _, _), .truncated(let path, _, _), .corrupt(let path, _):
            return path
        }
    }

    /// The message without the file name.
    public var message: String {
        let rebuild = "run Scripts/setup to rebuild it"
        switch self {
        case .missing:
            return "no lexicon table; run Scripts/setup to build it from Lexique 3.83"
        case .unreadable(_, let reason):
            return "cannot read the lexicon table: \(reason)"
        case .notALexicon:
            return "not a lexicon table (written by Scripts/lexicon/build-lexicon.py); \(rebuild)"
        case .unsupportedVersion(_, let found, let expected):
            return "lexicon table version \(found), this build reads version \(expected); \(rebuild)"
        case .truncated(_, let expected, let actual):
            return "lexicon table truncated: \(actual) bytes of \(expected); \(rebuild)"
        case .corrupt(_, let reason):
            return "corrupt lexicon table: \(reason); \(rebuild)"
        }
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

extension Lexicon: CommonWordLexicon {
    /// Whether Lexique 3.83 has a `NOM` or `ADJ` row for the word in lower case ("Police" is
    /// `police`, NOM). Proper names such as Léa are not in Lexique.
    /// A word written without its accents ("Leucemie", "Maitresse") is compared with the forms
    /// folded the same way (case and diacritics, `String.folding`).
    public func isCommonNounOrAdjective(_ word: String) -> Bool {
        if entries(for: word.lowercased()).contains(where: { $0.partOfSpeech == .noun || $0.partOfSpeech == .adjective }) {
            return true
        }
        return commonWordsFolded().contains(Self.folded(word))
    }

    /// Whether Lexique 3.83 has the word as a form of any part of speech, in lower case or
    /// compared folded (case and diacritics).
    public func isKnownWord(_ word: String) -> Bool {
        if !entries(for: word.lowercased()).isEmpty { return true }
        foldedCommonWordsLock.lock()
        defer { foldedCommonWordsLock.unlock() }
        if foldedForms == nil {
            var words = Set<String>()
            for form in 0..<formCount { words.insert(Self.folded(string(formBlob, range: formRange(form)))) }
            foldedForms = words
        }
        return foldedForms!.contains(Self.folded(word))
    }

    static func folded(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Every form with a noun or adjective row, folded: about 100,000 strings, built once.
    private func commonWordsFolded() -> Set<String> {
        foldedCommonWordsLock.lock()
        defer { foldedCommonWordsLock.unlock() }
        if let known = foldedCommonWords { return known }
        var words = Set<String>()
        for form in 0..<formCount {
            let isCommon = rowRange(ofForm: form).contains { row in
                let code = Int((rows + row * Self.rowSize).load(fromByteOffset: 15, as: UInt8.self))
                return partsOfSpeech[code] == .noun || partsOfSpeech[code] == .adjective
            }
            if isCommon { words.insert(Self.folded(string(formBlob, range: formRange(form)))) }
        }
        foldedCommonWords = words
        return words
    }
}
