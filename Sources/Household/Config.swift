import DicteeCore
import Foundation
import Generation
import Web

/// The family's configuration file (Docs/architecture.md, "Files on disk"): the calendar sources for
/// `dictee nightly`, the language model, and the one switch that lets text leave the machine.
///
/// A JSON object; every key is optional and an unknown key is refused (a typo such as
/// `"richer_text"` must not silently keep the default):
///
/// ```json
/// {
///   "sources": ["/home/famille/calendrier.ics"],
///   "model": {"gguf": "/path/model.gguf", "endpoint": "http://127.0.0.1:8080/v1", "name": "qwen2.5-0.5b",
///             "context": 2048, "python": "/path/to/venv/bin/python", "timeout_seconds": 120,
///             "temperature": 0.7, "seed": 42, "in_process": true},
///   "richer_texts": false,
///   "egress_log": "/path/egress.log"
/// }
/// ```
///
/// A `null` value counts as an absent key. A missing or empty file is the empty configuration.
///
/// - Warning: `richerTexts` is the only way a non-loopback endpoint is allowed; `ModelRoute`
///   decides what the configuration sends where (`dictee privacy` prints it, `dictee nightly` runs it).
public struct Config: Sendable, Equatable {
    /// The calendars read by `dictee nightly`, in the order they were added: absolute paths of
    /// files or vdir folders, subscription URLs, CalDAV collections (`CalendarSource`).
    public var sources: [CalendarSource] = []
    /// A proxy for remote sources (JSON `proxy`, e.g. `http://proxy.lan:3128`); `nil`: no proxy,
    /// whatever `http_proxy` or `https_proxy` say.
    public var proxy: String?
    /// The language model, `nil` when none is configured (dictations come from the library).
    public var model: ModelConfig?
    /// Whether a non-loopback `model.endpoint` is allowed (JSON `richer_texts`, default false).
    public var richerTexts = false
    /// Where request bodies for a non-loopback endpoint are appended (JSON `egress_log`);
    /// `nil` means the default, see `egressLogPath(_:)`.
    public var egressLog: String?

    /// The `model` object.
    public struct ModelConfig: Sendable, Equatable {
        /// A `model` object; every key optional, as in the file.
        public init(gguf: String? = nil, endpoint: String? = nil, name: String? = nil, context: Int? = nil,
                    python: String? = nil, timeoutSeconds: Int? = nil, temperature: Double? = nil, seed: Int? = nil,
                    inProcess: Bool? = nil) {
            self.gguf = gguf
            self.endpoint = endpoint
            self.name = name
            self.context = context
            self.python = python
            self.timeoutSeconds = timeoutSeconds
            self.temperature = temperature
            self.seed = seed
            self.inProcess = inProcess
        }

        /// A GGUF file (managed mode): dictee runs it in process through llama.cpp when it was
        /// built with it, else it starts and stops a llama-cpp-python server on 127.0.0.1 itself.
        public var gguf: String?
        /// A running OpenAI-compatible server, e.g. `http://127.0.0.1:8080/v1`.
        public var endpoint: String?
        /// The model name sent in requests.
        public var name: String?
        /// The context size, in tokens.
        public var context: Int?
        /// The Python interpreter that has `llama-cpp-python[server]` (managed mode).
        public var python: String?
        /// How long one request may take, in seconds (JSON `timeout_seconds`).
        public var timeoutSeconds: Int?
        /// Sampling temperature, 0 to 2 (JSON `temperature`; default 0.7, 0 is greedy).
        public var temperature: Double?
        /// The sampler's seed, 0 to 4294967295 (JSON `seed`): the same seed, model and prompt give
        /// the same text. Without it a server draws its own, and the in-process model uses
        /// `LlamaModel.defaultSeed`.
        public var seed: Int?
        /// Managed mode only (JSON `in_process`; default true): false starts the llama-cpp-python
        /// server even when dictee was built with llama.cpp (to compare the two, or for a chat
        /// template llama.cpp does not apply itself).
        public var inProcess: Bool?

        /// `temperature`, else `ModelRequest.defaultTemperature` (0.7).
        public var sampleTemperature: Double { temperature ?? ModelRequest.defaultTemperature }
    }

    /// The empty configuration: no source, no model, nothing leaves the machine.
    public init(sources: [CalendarSource] = [], model: ModelConfig? = nil, richerTexts: Bool = false, egressLog: String? = nil) {
        self.sources = sources
        self.model = model
        self.richerTexts = richerTexts
        self.egressLog = egressLog
    }

    // MARK: - Where the file is

    /// `$DICTEE_CONFIG`, else `$XDG_CONFIG_HOME/dictee/config.json` (an absolute
    /// `XDG_CONFIG_HOME` only, as the XDG Base Directory specification says), else
    /// `~/.config/dictee/config.json`, with `HOME` from the given environment.
    public static func path(environment: [String: String]) -> String {
        if let path = environment["DICTEE_CONFIG"], !path.isEmpty { return path }
        return XDGFolder.config.dictee(environment) + "/config.json"
    }

    /// The egress log: `egressLog` when set, else `$XDG_DATA_HOME/dictee/egress.log`, else
    /// `~/.local/share/dictee/egress.log` (the same folder rule as the state).
    public func egressLogPath(environment: [String: String]) -> String {
        if let egressLog { return egressLog }
        return XDGFolder.data.dictee(environment) + "/egress.log"
    }

    // MARK: - Reading

    /// Reads the configuration file at `path`; a missing file is the empty configuration.
    /// - Throws: `ConfigError` naming the path (and the key, when one is wrong).
    public static func load(path: String) throws(ConfigError) -> Config {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return Config() }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: tr("a directory, not a file")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: tr("cannot read the file (permissions?)"))
        }
        return try parse(data, path: path)
    }

    /// Parses the text of a configuration file; `path` is only used in the errors.
    /// - Throws: `ConfigError.invalidJSON`, `.notAnObject`, `.wrongType` or `.unknownKey`.
    static func parse(_ data: Data, path: String) throws(ConfigError) -> Config {
        // An empty file (`touch config.json`) is the empty configuration.
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return Config() }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .invalidJSON(path: path, detail: jsonErrorDetail(data))
        }
        guard case .object(let object) = root else {
            throw .notAnObject(path: path, found: root.kind)
        }
        // JSON readers disagree on a key written twice (this decoder keeps one, others the
        // last): `"richer_texts": false` appended at the end must not be ignored. Refused.
        if let repeated = repeatedKey(in: data) { throw .repeatedKey(path: path, key: repeated) }
        var config = Config()
        try checkKeys(object, known: topKeys, prefix: "", path: path)
        if let value = object["sources"], value != .null {
            guard case .array(let items) = value else {
                throw .wrongType(path: path, key: "sources", expected: tr("a list of file paths, URLs or CalDAV objects"), found: value.kind)
            }
            for (k, item) in items.enumerated() {
                config.sources.append(try source(item, key: "sources[\(k + 1)]", path: path))
            }
        }
        if let value = object["model"], value != .null {
            guard case .object(let fields) = value else {
                throw .wrongType(path: path, key: "model", expected: tr("an object ({\"gguf\": ...})"), found: value.kind)
            }
            try checkKeys(fields, known: modelKeys, prefix: "model.", path: path)
            var model = ModelConfig()
            func string(_ key: String, _ expected: String) throws(ConfigError) -> String? {
                guard let value = fields[key], value != .null else { return nil }
                return try nonEmptyString(value, key: "model." + key, expected: expected, path: path)
            }
            func positive(_ key: String, _ expected: String) throws(ConfigError) -> Int? {
                guard let value = fields[key], value != .null else { return nil }
                guard case .int(let n) = value, n > 0 else {
                    throw .wrongType(path: path, key: "model." + key, expected: expected, found: value.kind)
                }
                return n
            }
            model.gguf = try string("gguf", tr("a file path"))
            model.endpoint = try string("endpoint", tr("a URL"))
            if let endpoint = model.endpoint, !ModelEndpoint.isHTTPURL(endpoint) {
                throw .wrongType(path: path, key: "model.endpoint", expected: tr("an http:// or https:// URL with a host"),
                                 found: "\"\(TerminalText.sanitized(endpoint))\"")
            }
            model.name = try string("name", tr("a model name"))
            model.context = try positive("context", tr("a whole number of tokens above 0"))
            model.python = try string("python", tr("a file path"))
            model.timeoutSeconds = try positive("timeout_seconds", tr("a whole number of seconds above 0"))
            if let value = fields["temperature"], value != .null {
                let t: Double
                switch value {
                case .int(let n): t = Double(n)
                case .number(let x): t = x
                default: t = -1
                }
                guard (0...2).contains(t) else {
                    var found = value.kind
                    if case .number(let x) = value { found = String(x) }
                    throw .wrongType(path: path, key: "model.temperature", expected: tr("a number from 0 to 2"), found: found)
                }
                model.temperature = t
            }
            if let value = fields["seed"], value != .null {
                guard case .int(let n) = value, (0...Int(UInt32.max)).contains(n) else {
                    throw .wrongType(path: path, key: "model.seed", expected: tr("a whole number from 0 to 4294967295"), found: value.kind)
                }
                model.seed = n
            }
            if let value = fields["in_process"], value != .null {
                guard case .bool(let on) = value else {
                    throw .wrongType(path: path, key: "model.in_process", expected: tr("true or false"), found: value.kind)
                }
                model.inProcess = on
            }
            config.model = model
        }
        if let value = object["richer_texts"], value != .null {
            guard case .bool(let on) = value else {
                throw .wrongType(path: path, key: "richer_texts", expected: tr("true or false"), found: value.kind)
            }
            config.richerTexts = on
        }
        if let value = object["egress_log"], value != .null {
            config.egressLog = try nonEmptyString(value, key: "egress_log", expected: tr("a file path"), path: path)
        }
        if let value = object["proxy"], value != .null {
            config.proxy = try nonEmptyString(value, key: "proxy", expected: tr("a proxy URL"), path: path)
        }
        return config
    }

    /// One entry of `sources`: a string (path or subscription URL), `{"url": …}` (a subscription
    /// with options) or `{"caldav": …, "user": …}`.
    private static func source(_ item: JSONValue, key: String, path: String) throws(ConfigError) -> CalendarSource {
        if case .string = item {
            let text = try nonEmptyString(item, key: key, expected: tr("a file path or URL"), path: path)
            // An address is read as one, or refused: never echoed as a file path (it may hold a password).
            if text.contains("://"), CalendarSource.subscriptionURL(text) == nil {
                throw .wrongType(path: path, key: key, expected: tr("a file path, or an https URL without user or password"), found: tr("another address"))
            }
            return CalendarSource(text: text)
        }
        guard case .object(let fields) = item else {
            throw .wrongType(path: path, key: key, expected: tr("a file path, a URL or an object"), found: item.kind)
        }
        let isCalDAV = fields["caldav"] != nil
        try checkKeys(fields, known: isCalDAV ? caldavKeys : subscriptionKeys, prefix: key + ".", path: path)
        func string(_ name: String, _ expected: String) throws(ConfigError) -> String? {
            guard let value = fields[name], value != .null else { return nil }
            return try nonEmptyString(value, key: key + "." + name, expected: expected, path: path)
        }
        let urlKey = isCalDAV ? "caldav" : "url"
        guard let text = try string(urlKey, "an https URL"),
              let url = Subscription.url(from: text)
        else {
            throw .wrongType(path: path, key: key + "." + urlKey, expected: tr("an https URL without user or password"), found: fields[urlKey]?.kind ?? tr("nothing"))
        }
        var insecure = false
        if let value = fields["insecure_http"], value != .null {
            guard case .bool(let on) = value else {
                throw .wrongType(path: path, key: key + ".insecure_http", expected: tr("true or false"), found: value.kind)
            }
            insecure = on
        }
        var remote = CalendarSource.Remote(url: url.absoluteString, caFile: try string("ca_file", tr("a file path")), insecureHTTP: insecure)
        guard isCalDAV else { return .subscription(remote) }
        guard let user = try string("user", tr("a user name")) else {
            throw .wrongType(path: path, key: key + ".user", expected: tr("a user name"), found: tr("nothing"))
        }
        if user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            throw .wrongType(path: path, key: key + ".user", expected: tr("a user name"), found: tr("control characters"))
        }
        remote.user = user
        remote.passwordFile = try string("password_file", tr("a file path"))
        return .caldav(remote)
    }

    static let topKeys = ["sources", "model", "richer_texts", "egress_log", "proxy"]
    static let subscriptionKeys = ["url", "ca_file", "insecure_http"]
    static let caldavKeys = ["caldav", "user", "password_file", "ca_file", "insecure_http"]
    static let modelKeys = ["gguf", "endpoint", "name", "context", "python", "timeout_seconds", "temperature", "seed", "in_process"]

    private static func checkKeys(
        _ object: [String: JSONValue], known: [String], prefix: String, path: String
    ) throws(ConfigError) {
        // Sorted, so that the reported key does not depend on the dictionary's order.
        for key in object.keys.sorted() where !known.contains(key) {
            throw .unknownKey(path: path, key: prefix + key,
                              suggestion: NearestWord.find(key, in: known).map { prefix + $0 },
                              known: known.map { prefix + $0 })
        }
    }

    private static func nonEmptyString(
        _ value: JSONValue, key: String, expected: String, path: String
    ) throws(ConfigError) -> String {
        guard case .string(let s) = value else {
            throw .wrongType(path: path, key: key, expected: tr("%@ (a string)", expected), found: value.kind)
        }
        guard !s.isEmpty else {
            throw .wrongType(path: path, key: key, expected: expected, found: tr("an empty string"))
        }
        return s
    }

    /// The first key written twice in one object of a JSON text that already parsed, as
    /// `prefix.key` (`model.gguf`, `richer_texts`), or `nil`. A scan of the text itself, because a
    /// decoded dictionary has already dropped one of the two.
    static func repeatedKey(in data: Data) -> String? {
        let bytes = [UInt8](data)
        // One frame per open object or array: an object's keys so far and its own name.
        struct Frame { var isObject: Bool; var keys: Set<String> = []; var name: String; var expectingKey: Bool }
        var stack: [Frame] = []
        var lastKey = ""
        var i = 0
        func readString() -> String? {
            // At the opening quote; returns the decoded string and moves past the closing quote.
            var raw: [UInt8] = [0x22]
            i += 1
            while i < bytes.count {
                let b = bytes[i]
                raw.append(b)
                i += 1
                if b == 0x5C, i < bytes.count { raw.append(bytes[i]); i += 1; continue }
                if b == 0x22 { break }
            }
            return (try? JSONDecoder().decode(String.self, from: Data(raw)))
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x22:  // "
                guard let text = readString() else { return nil }
                if var top = stack.last, top.isObject, top.expectingKey {
                    let full = (top.name.isEmpty ? "" : top.name + ".") + text
                    if top.keys.contains(text) { return full }
                    top.keys.insert(text)
                    top.expectingKey = false
                    stack[stack.count - 1] = top
                    lastKey = full
                }
                continue
            case 0x7B:  // {
                let name = stack.last?.isObject == true ? lastKey : (stack.last?.name ?? "")
                stack.append(Frame(isObject: true, name: stack.isEmpty ? "" : name, expectingKey: true))
            case 0x5B:  // [
                stack.append(Frame(isObject: false, name: stack.last?.isObject == true ? lastKey : (stack.last?.name ?? ""), expectingKey: false))
            case 0x7D, 0x5D:  // } ]
                if !stack.isEmpty { stack.removeLast() }
            case 0x2C:  // ,
                if var top = stack.last, top.isObject {
                    top.expectingKey = true
                    stack[stack.count - 1] = top
                }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// Where JSONSerialization says the text stops being JSON, as `line L, column C` when it
    /// names a character offset.
    private static func jsonErrorDetail(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            guard let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else {
                return tr("not valid JSON")
            }
            var detail = debug.hasSuffix(".") ? String(debug.dropLast()) : debug
            if let range = detail.range(of: #"character \d+"#, options: .regularExpression),
               let offset = Int(detail[range].dropFirst("character ".count))
            {
                let before = data.prefix(offset)
                let line = before.filter { $0 == 0x0A }.count + 1
                let column = before.count - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
                detail.replaceSubrange(range, with: tr("line %ld, column %ld", line, column))
            }
            return tr("not valid JSON (%@)", detail.prefix(1).lowercased() + detail.dropFirst())
        }
        return tr("not valid JSON")
    }

    // MARK: - Writing

    /// A source as the file writes it: a string when it needs no option.
    private static func json(_ source: CalendarSource) -> Any {
        switch source {
        case .path(let path): return path
        case .subscription(let remote) where remote.caFile == nil && !remote.insecureHTTP: return remote.url
        case .subscription(let remote), .caldav(let remote):
            var fields: [String: Any] = [:]
            if case .caldav = source {
                fields["caldav"] = remote.url
                fields["user"] = remote.user
                if let file = remote.passwordFile { fields["password_file"] = file }
            } else {
                fields["url"] = remote.url
            }
            if let file = remote.caFile { fields["ca_file"] = file }
            if remote.insecureHTTP { fields["insecure_http"] = true }
            return fields
        }
    }

    /// Writes the configuration as pretty JSON with sorted keys: in a temporary file in the same
    /// folder (mode 0600: it may name the family's files), then renamed over `path`, so that a
    /// reader never sees half a file (`PrivateFile.replace`). Creates the folder (mode 0700) when missing.
    /// - Parameter path: usually `Config.path(environment:)`.
    /// - Throws: `ConfigError.cannotWrite` naming the path.
    public func save(to path: String) throws(ConfigError) {
        var object: [String: Any] = ["sources": sources.map(Self.json), "richer_texts": richerTexts]
        if let egressLog { object["egress_log"] = egressLog }
        if let proxy { object["proxy"] = proxy }
        if let model {
            var fields: [String: Any] = [:]
            if let v = model.gguf { fields["gguf"] = v }
            if let v = model.endpoint { fields["endpoint"] = v }
            if let v = model.name { fields["name"] = v }
            if let v = model.context { fields["context"] = v }
            if let v = model.python { fields["python"] = v }
            if let v = model.timeoutSeconds { fields["timeout_seconds"] = v }
            if let v = model.temperature { fields["temperature"] = v }
            if let v = model.seed { fields["seed"] = v }
            if let v = model.inProcess { fields["in_process"] = v }
            object["model"] = fields
        }
        var data: Data
        do {
            data = try JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw .cannotWrite(path: path, reason: tr("cannot encode the configuration"))
        }
        data.append(0x0A)
        do {
            try PrivateFile.replace(path, with: data)
        } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
    }
}

/// Why the configuration cannot be read or written. Messages name the file and the key.
public enum ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    case unreadable(path: String, reason: String)
    case invalidJSON(path: String, detail: String)
    case notAnObject(path: String, found: String)
    case wrongType(path: String, key: String, expected: String, found: String)
    case unknownKey(path: String, key: String, suggestion: String?, known: [String])
    /// A key written twice in one object (`key` with its object's prefix, e.g. `model.gguf`).
    case repeatedKey(path: String, key: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): \(reason)"
        case .invalidJSON(let path, let detail):
            return "\(path): \(detail)"
        case .notAnObject(let path, let found):
            return tr("%@: the configuration must be a JSON object ({...}), not %@", path, found)
        case .wrongType(let path, let key, let expected, let found):
            return tr("%@: \"%@\" must be %@, not %@", path, key, expected, found)
        case .repeatedKey(let path, let key):
            return tr("%@: the key \"%@\" is written twice; keep one", path, key)
        case .unknownKey(let path, let key, let suggestion, _):
            return tr("%@: unknown key \"%@\"", path, key) + (suggestion.map { tr("; did you mean \"%@\"?", $0) } ?? "")
        case .cannotWrite(let path, let reason):
            return tr("%@: cannot write the configuration (%@)", path, reason)
        }
    }
}

/// A JSON value with its type kept (JSONSerialization on Linux answers `true` for `1 as? Bool`).
private enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// What the value is, for messages: "a string", "a number"...
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .number: return tr("a fractional number")
        case .string: return tr("a string")
        case .array: return tr("a list")
        case .object: return tr("an object")
        }
    }
}
