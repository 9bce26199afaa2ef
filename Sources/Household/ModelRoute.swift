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
                "model.endpoint \(endpoint) is not a loopback address; nothing is sent there unless "
                    + "\"richer_texts\": true is set in \(configPath)"
            case .egressLogUnwritable(let endpoint, let log, let problem):
                "the egress log \(log) cannot be written (\(problem)): nothing is sent to \(endpoint)"
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
}
