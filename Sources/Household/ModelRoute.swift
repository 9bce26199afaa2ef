import DicteeCore
import Foundation
import Generation

/// Where this configuration's model requests go: the one decision, resolved once from the
/// configuration, printed by `dictee privacy` and executed by `dictee nightly` (Docs/architecture.md,
/// "Privacy boundary").
///
/// - `library`: no model is configured; the handwritten library serves every text.
/// - `managed`: dictee starts a llama-cpp-python server on 127.0.0.1 for the run and stops it.
/// - `loopback`: a server the user runs on this machine.
/// - `remote`: a server elsewhere, allowed only by `"richer_texts": true`; every request body is
///   appended to the egress log before it is sent.
/// - `refused`: a model is configured but nothing may be sent to it; the library serves every text.
///
/// When both `model.endpoint` and `model.gguf` are set, the endpoint wins (requests would go
/// there). A remote endpoint whose egress log cannot be written is refused: nothing is sent that
/// cannot be logged first.
public enum ModelRoute: Sendable, Equatable {
    case library(LibraryReason)
    case managed(gguf: String)
    case loopback(ModelEndpoint)
    case remote(ModelEndpoint)
    case refused(Refusal)

    /// Why the library serves every text although nothing is refused.
    public enum LibraryReason: Sendable, Equatable {
        /// No `model` in the configuration.
        case noModel
    }

    /// Why nothing is sent to a configured endpoint.
    public enum Refusal: Sendable, Equatable, CustomStringConvertible {
        /// A non-loopback endpoint without `"richer_texts": true`.
        case notLoopback(endpoint: String, configPath: String)
        /// A remote endpoint whose egress log cannot be appended to (`problem`, e.g. "its folder
        /// does not exist").
        case egressLogUnwritable(endpoint: String, log: String, problem: String)

        public var description: String {
            switch self {
            case .notLoopback(let endpoint, let configPath):
                tr("model.endpoint %@ is not a loopback address; nothing is sent there unless \"richer_texts\": true is set in %@", endpoint, configPath)
            case .egressLogUnwritable(let endpoint, let log, let problem):
                tr("the egress log %@ cannot be written (%@): nothing is sent to %@", log, problem, endpoint)
            }
        }
    }

    /// The route of a configuration.
    /// - Parameters:
    ///   - config: the configuration read from `configPath`.
    ///   - configPath: named in refusals (where to set `richer_texts`).
    ///   - environment: for the default egress log folder (`XDGFolder.data`).
    ///   - clock: stamps the egress log's entries.
    public static func resolve(_ config: Config, configPath: String, environment: [String: String],
                               clock: any Clock) -> ModelRoute {
        if let endpoint = config.model?.endpoint {
            if let local = ModelEndpoint.loopback(endpoint) { return .loopback(local) }
            guard config.richerTexts else {
                return .refused(.notLoopback(endpoint: endpoint, configPath: configPath))
            }
            let log = EgressLog(path: config.egressLogPath(environment: environment), clock: clock)
            if let problem = log.problem {
                return .refused(.egressLogUnwritable(endpoint: endpoint, log: log.path, problem: problem))
            }
            // The configuration refuses a non-http(s) endpoint when it is read.
            guard let remote = ModelEndpoint.remote(endpoint, egressLog: log) else {
                return .refused(.notLoopback(endpoint: endpoint, configPath: configPath))
            }
            return .remote(remote)
        }
        if let gguf = config.model?.gguf { return .managed(gguf: gguf) }
        return .library(.noModel)
    }

    /// Whether this build of dictee runs a GGUF inside its own process (it was built with
    /// llama.cpp: Package.swift's `DICTEE_LLAMA`).
    public static var inProcessAvailable: Bool {
        #if DICTEE_LLAMA
        true
        #else
        false
        #endif
    }

    /// Whether managed mode runs the model in process for `config` (llama.cpp is built in and
    /// `model.in_process` is not false), rather than starting the llama-cpp-python server.
    public static func runsInProcess(_ config: Config) -> Bool {
        inProcessAvailable && config.model?.inProcess != false
    }

    /// Whether requests are sent at all on this route.
    public var sendsRequests: Bool {
        switch self {
        case .library, .refused: false
        case .managed, .loopback, .remote: true
        }
    }

    /// Whether requests leave this machine.
    public var leavesMachine: Bool {
        if case .remote = self { return true }
        return false
    }

    /// What one request contains on this route: `ModelRoute.requestFields`; empty when nothing
    /// is sent.
    public var requestContents: [String] {
        sendsRequests ? Self.requestFields : []
    }

    /// What any request to a model contains: `Instructions.Inputs.contents`, the very fields the
    /// request is written from (a test checks the list against the type's stored properties),
    /// then what a retry adds (`Instructions.retryContents`). The tokenizer's requests carry the
    /// same texts.
    public static var requestFields: [String] {
        Instructions.Inputs.contents.map(\.description) + Instructions.retryContents
    }

    /// One entry of `requestFields` (English, as the JSON of `dictee privacy` lists it) in the
    /// current language, for people; an entry without a translation here stays as it is (the
    /// tests check that every entry of `requestFields` has one).
    public static func forPeople(_ field: String) -> String {
        switch field {
        case "the instructions (French, written by dictee)": tr("the instructions (French, written by dictee)")
        case "the child's first name": tr("the child's first name")
        case "the child's gender": tr("the child's gender")
        case "the child's grade": tr("the child's grade")
        case "the target skills": tr("the target skills")
        case "the trap sites per target skill": tr("the trap sites per target skill")
        case "the word range": tr("the word range")
        case "the sentence range": tr("the sentence range")
        case "the longest sentence allowed": tr("the longest sentence allowed")
        case "the moment's canonical phrase (as listed in the audit file)": tr("the moment's canonical phrase (as listed in the audit file)")
        case "the moment's day seen from the writing day ('hier', 'avant-hier', 'samedi', 'samedi dernier'; the day of the month when more than a week away), no hour":
            tr("the moment's day seen from the writing day ('hier', 'avant-hier', 'samedi', 'samedi dernier'; the day of the month when more than a week away), no hour")
        case "whether the moment has begun": tr("whether the moment has begun")
        case "on a retry, the model's previous answer and the validator's French sentences about it":
            tr("on a retry, the model's previous answer and the validator's French sentences about it")
        default: field
        }
    }
}
