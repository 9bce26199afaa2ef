// The only file that calls Hunspell (Debian libhunspell-dev 1.7). Docs/style.md, "Wrapping C".
//
// Ownership rule:
// - `Hunspell_create` returns a handle that this wrapper owns; `deinit` frees it with
//   `Hunspell_destroy`. Hunspell is not thread-safe, not even across handles: its UTF-8 case
//   tables are process-wide, reference-counted without atomics, and freed when a handle is
//   destroyed while another thread uses them (capitalised words then come back as misspelt).
//   So every call, creation and destruction included, goes through one process-wide lock.
// - `Hunspell_analyze` (like `_suggest`, `_stem`, `_generate`) allocates a `char **` list that the
//   caller frees with `Hunspell_free_list` on the same handle; the strings are copied into Swift
//   before that.
// - `Hunspell_get_dic_encoding` returns a string owned by the handle: copied at once, never freed.
// - `Hunspell_create` reports nothing (missing files give a handle that rejects every word), so the
//   initializer checks the files itself.
// No C pointer leaves this file.
import Foundation
internal import CHunspell

/// Why a Hunspell dictionary could not be loaded.
public enum SpellCheckerError: Error, CustomStringConvertible, Equatable {
    /// The affix or dictionary file does not exist or cannot be read.
    case unreadableFile(URL)
    /// The affix file's `SET` line names an encoding this wrapper cannot convert to.
    case unsupportedEncoding(String, affix: URL)
    /// Hunspell returned no handle (out of memory).
    case loadFailed(affix: URL)

    public var description: String {
        switch self {
        case .unreadableFile(let url):
            "hunspell file \(url.path) does not exist or is not readable; "
                + "hint: apt-get install hunspell-fr-classical"
        case .unsupportedEncoding(let name, let affix):
            "hunspell affix file \(affix.path) uses the encoding '\(name)', which cannot be converted"
        case .loadFailed(let affix):
            "hunspell could not load \(affix.path)"
        }
    }
}

/// Hunspell spell checking and morphological analysis, in process.
///
/// One instance owns one Hunspell handle. Hunspell is not thread-safe, so every call takes an
/// internal lock: share one instance between threads freely, or create one per thread for
/// parallel checking (loading the French dictionary takes about a tenth of a second and some
/// 20 MB).
public final class SpellChecker: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Serialises every Hunspell call in the process (see the ownership note at the top).
    private static let processLock = NSLock()
    private let encoding: DictionaryEncoding
    /// A second dictionary whose words are accepted too (``french()``: the 1990 rectified
    /// spellings of `hunspell-fr-revised`); `nil` for one dictionary.
    public private(set) var companion: SpellChecker?

    /// The Debian `hunspell-fr-classical` affix file. `fr_FR.aff` is a symbolic link to `fr.aff`,
    /// the "classique" variant of Grammalecte's French dictionary (v7.0, MPL-2.0; its header says
    /// `DICTIONNAIRE ORTHOGRAPHIQUE FRANÇAIS “CLASSIQUE”`). The other `fr_*` names are links to
    /// the same files.
    public static let frenchAffix = URL(fileURLWithPath: "/usr/share/hunspell/fr_FR.aff")
    /// The Debian `hunspell-fr-classical` dictionary file (a link to `fr.dic`).
    public static let frenchDictionary = URL(fileURLWithPath: "/usr/share/hunspell/fr_FR.dic")

    /// Loads a Hunspell dictionary.
    ///
    /// - Parameters:
    ///   - affix: the `.aff` file.
    ///   - dictionary: the `.dic` file.
    /// - Throws: `SpellCheckerError.unreadableFile` if either file is missing or unreadable
    ///   (Hunspell itself would silently load an empty dictionary), `.unsupportedEncoding` if the
    ///   affix file's `SET` encoding is neither UTF-8 nor a single-byte encoding this wrapper
    ///   converts (ISO8859-1, ISO8859-2, ISO8859-15, microsoft-cp1250/1251/1252), `.loadFailed`.
    public init(affix: URL, dictionary: URL) throws(SpellCheckerError) {
        for file in [affix, dictionary] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory),
                  !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: file.path)
            else { throw .unreadableFile(file) }
        }
        SpellChecker.processLock.lock()
        guard let handle = Hunspell_create(affix.path, dictionary.path) else {
            SpellChecker.processLock.unlock()
            throw .loadFailed(affix: affix)
        }
        // Hunspell reads the SET line (ISO8859-1 when there is none); the name is owned by the
        // handle.
        let name = Hunspell_get_dic_encoding(handle).map { String(cString: $0) } ?? "ISO8859-1"
        guard let encoding = DictionaryEncoding(hunspellName: name) else {
            Hunspell_destroy(handle)
            SpellChecker.processLock.unlock()
            throw .unsupportedEncoding(name, affix: affix)
        }
        SpellChecker.processLock.unlock()
        self.handle = handle
        self.encoding = encoding
    }

    /// Loads Debian's French dictionary (`hunspell-fr-classical`, see `frenchAffix`).
    ///
    /// - Throws: `SpellCheckerError.unreadableFile` when the package is not installed.
    /// When the "réforme 1990" dictionary (Debian `hunspell-fr-revised`, v7.0, MPL-2.0) is found
    /// (``revisedDirectory(environment:)``), a word either dictionary accepts is accepted:
    /// "connait" and "connaît", "évènement" and "événement", "s'assoir" and "s'asseoir" (the
    /// French programmes accept both spellings). Without it, only the traditional spellings pass.
    /// The package conflicts with hunspell-fr-classical, so `Scripts/setup` extracts its two files
    /// instead of installing it.
    ///
    /// - Throws: `SpellCheckerError.unreadableFile` when the package is not installed.
    public static func french(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SpellCheckerError) -> SpellChecker {
        let classical = try SpellChecker(affix: frenchAffix, dictionary: frenchDictionary)
        if let dir = revisedDirectory(environment: environment) {
            classical.companion = try? SpellChecker(affix: dir.appendingPathComponent("fr.aff"), dictionary: dir.appendingPathComponent("fr.dic"))
        }
        return classical
    }

    /// The folder holding `fr.aff` and `fr.dic` of `hunspell-fr-revised`: `$DICTEE_HUNSPELL_REVISED`,
    /// else `/usr/local/share/dictee/hunspell-fr-revised`, else
    /// `${XDG_DATA_HOME:-~/.local/share}/dictee/hunspell-fr-revised` (where `Scripts/setup` puts
    /// them); the first that has both files, or `nil`.
    public static func revisedDirectory(environment: [String: String]) -> URL? {
        var candidates: [String] = []
        if let d = environment["DICTEE_HUNSPELL_REVISED"], !d.isEmpty { candidates.append(d) }
        candidates.append("/usr/local/share/dictee/hunspell-fr-revised")
        if let x = environment["XDG_DATA_HOME"], x.hasPrefix("/") { candidates.append(x + "/dictee/hunspell-fr-revised") }
        if let h = environment["HOME"], h.hasPrefix("/") { candidates.append(h + "/.local/share/dictee/hunspell-fr-revised") }
        let fm = FileManager.default
        return candidates.first { fm.isReadableFile(atPath: $0 + "/fr.aff") && fm.isReadableFile(atPath: $0 + "/fr.dic") }
            .map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    deinit {
        // Hunspell 1.7 counts its process-wide UTF-8 case tables up only for UTF-8 dictionaries
        // but down for every destroyed handle: destroying a handle of an 8-bit dictionary frees
        // the tables under the live UTF-8 handles (capitalised words, "Aujourd'hui", then fail).
        // Handles of 8-bit dictionaries are therefore kept until the process ends (dictee only
        // loads the UTF-8 French dictionary; the 8-bit ones appear in tests).
        guard encoding.name.uppercased().replacingOccurrences(of: "-", with: "") == "UTF8" else { return }
        SpellChecker.processLock.lock()
        Hunspell_destroy(handle)
        SpellChecker.processLock.unlock()
    }

    /// The dictionary's encoding as its `SET` line names it, e.g. `UTF-8`.
    public var dictionaryEncoding: String { encoding.name }

    /// Whether the dictionary accepts one token of a text.
    ///
    /// Pass one token as written, without surrounding punctuation or spaces; a string that is
    /// empty or contains white space is never accepted (Hunspell itself accepts the empty
    /// string). The token is put in NFC, typographic apostrophes (`’` U+2019, `ʼ` U+02BC) become
    /// `'` and Unicode hyphens (U+2010, non-breaking U+2011) become `-` before the lookup. Do not
    /// lower-case it first: proper nouns (`Léa`) need their capital, while a capitalised common
    /// word (`Aujourd'hui`, `ÉTÉ`) is accepted.
    ///
    /// How the French dictionary (hunspell-fr-classical 7.0) treats what a French text contains,
    /// found by running it:
    /// - Elided forms are words of their own: `l'`, `d'`, `j'`, `n'`, `s'`, `c'`, `qu'`, `jusqu'`,
    ///   `lorsqu'`, `puisqu'` are accepted alone, and glued to the next word through prefix flags
    ///   (`l'école`, `jusqu'à`, `qu'il`, `c'est`). Words with an inner apostrophe are entries
    ///   (`aujourd'hui`, `quelqu'un`, `presqu'île`, `prud'homme`, `entr'ouvrir`).
    /// - Apostrophes: the affix file stores `'` and converts `’` and `ʼ` on input (`ICONV`), so
    ///   both spellings are accepted; `‘` (an opening quote) and `´` are not apostrophes and are
    ///   rejected.
    /// - Hyphenated words: compounds are entries (`peut-être`, `grand-mère`, `week-end`,
    ///   `pique-nique`, `arc-en-ciel`, `c'est-à-dire`, `trente-deux`). When the whole token is not
    ///   an entry, `BREAK -` checks each part, so inversions and imperatives pass (`va-t-il`,
    ///   `dit-il`, `donne-moi`) — and so do wrong compounds made of real words (`chou-fleurs`,
    ///   whose plural is `choux-fleurs`): the grammar checker, not this, must catch those. A
    ///   fragment starting with a hyphen (`-t-il`) is rejected.
    /// - Hunspell drops one trailing full stop, so `etc.`, `M.` and also `maison.` pass; other
    ///   punctuation (`maison,`) does not. Digits alone pass (`2024`), glued units do not (`10h`).
    /// - Capitals keep their accents: `École`/`ÉCOLE` pass, `Ecole` does not.
    /// - Past simple forms are real words: `partit` is accepted (partir, ind:pas:3s).
    ///
    /// - Parameter word: one token, UTF-8 (any Swift string); converted to the dictionary's
    ///   encoding when it is not UTF-8 (a token with a character that encoding lacks is rejected).
    /// - Returns: `true` if the dictionary accepts the token.
    public func accepts(_ word: String) -> Bool {
        guard let bytes = lookupBytes(word) else { return false }
        SpellChecker.processLock.lock()
        let ok = bytes.withUnsafeBufferPointer { Hunspell_spell(handle, $0.baseAddress) } != 0
        SpellChecker.processLock.unlock()
        return ok || companion?.accepts(word) == true
    }

    /// Hunspell's morphological analyses of one token (`Hunspell_analyze`).
    ///
    /// For the French dictionary each string is a list of fields such as
    /// `st:partir po:v3_i____e_ po:ppas po:adj is:fem is:sg` (`st:` lemma, `po:` part of speech
    /// or tense, `is:` gender and number, `dp:` an elided prefix such as `dp:le|la+`). The token
    /// is normalised as in `accepts`. A token accepted only through `BREAK` (`va-t-il`) has no
    /// analysis.
    ///
    /// - Parameter word: one token.
    /// - Returns: one string per reading, trimmed; empty if the word is unknown.
    public func analyze(_ word: String) -> [String] {
        guard let bytes = lookupBytes(word) else { return [] }
        SpellChecker.processLock.lock()
        defer { SpellChecker.processLock.unlock() }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = bytes.withUnsafeBufferPointer { Hunspell_analyze(handle, &list, $0.baseAddress) }
        defer { if list != nil { Hunspell_free_list(handle, &list, count) } }
        guard let items = list, count > 0 else { return [] }
        var result: [String] = []
        for index in 0..<Int(count) {
            guard let item = items[index] else { continue }
            let text = encoding.decode(item).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { result.append(text) }
        }
        return result
    }

    /// The normalised token as a NUL-terminated byte string in the dictionary's encoding, or nil
    /// if it cannot be a word.
    private func lookupBytes(_ word: String) -> [CChar]? {
        guard !word.isEmpty, !word.unicodeScalars.contains(where: \.properties.isWhitespace) else {
            return nil
        }
        var scalars = String.UnicodeScalarView()
        for scalar in word.precomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar {
            case "\u{2019}", "\u{02BC}": scalars.append("'")
            case "\u{2010}", "\u{2011}": scalars.append("-")
            default: scalars.append(scalar)
            }
        }
        return encoding.encode(String(scalars))
    }
}

/// The character encoding of a Hunspell dictionary, from its `SET` line.
private struct DictionaryEncoding {
    let name: String
    private let foundation: String.Encoding?
    private let latin9: Bool

    init?(hunspellName name: String) {
        self.name = name
        let key = name.uppercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        switch key {
        case "UTF8": foundation = .utf8
        case "ISO88591": foundation = .isoLatin1
        case "ISO88592": foundation = .isoLatin2
        case "MICROSOFTCP1250", "CP1250": foundation = .windowsCP1250
        case "MICROSOFTCP1251", "CP1251": foundation = .windowsCP1251
        case "MICROSOFTCP1252", "CP1252": foundation = .windowsCP1252
        // Latin-9 (old French dictionaries use it for œ): Latin-1 with eight code points
        // replaced; converted by hand because Foundation on Linux lacks it.
        case "ISO885915": foundation = nil
        default: return nil
        }
        latin9 = foundation == nil
    }

    /// Latin-9 bytes that differ from Latin-1, and their characters.
    private static let latin9Differences: [(UInt8, Unicode.Scalar)] = [
        (0xA4, "€"), (0xA6, "Š"), (0xA8, "š"), (0xB4, "Ž"), (0xB8, "ž"), (0xBC, "Œ"), (0xBD, "œ"), (0xBE, "Ÿ"),
    ]

    /// NUL-terminated bytes, or nil if a character has no byte in this encoding.
    func encode(_ text: String) -> [CChar]? {
        var bytes: [UInt8]
        if latin9 {
            bytes = []
            for scalar in text.unicodeScalars {
                if let pair = Self.latin9Differences.first(where: { $0.1 == scalar }) {
                    bytes.append(pair.0)
                } else if scalar.value < 0x100, !Self.latin9Differences.contains(where: { UInt32($0.0) == scalar.value }) {
                    bytes.append(UInt8(scalar.value))
                } else {
                    return nil
                }
            }
        } else if foundation == .utf8 {
            bytes = Array(text.utf8)
        } else {
            guard let data = text.data(using: foundation!, allowLossyConversion: false) else { return nil }
            bytes = Array(data)
        }
        guard !bytes.contains(0) else { return nil }
        return bytes.map { CChar(bitPattern: $0) } + [0]
    }

    /// A NUL-terminated string in this encoding, as Swift text (invalid bytes become U+FFFD).
    func decode(_ pointer: UnsafePointer<CChar>) -> String {
        if foundation == .utf8 { return String(cString: pointer) }
        let length = strlen(pointer)
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        if latin9 {
            var scalars = String.UnicodeScalarView()
            for byte in bytes {
                scalars.append(Self.latin9Differences.first(where: { $0.0 == byte })?.1 ?? Unicode.Scalar(byte))
            }
            return String(scalars)
        }
        return String(data: Data(bytes), encoding: foundation!) ?? String(decoding: bytes, as: UTF8.self)
    }
}
