import DicteeTestSupport
import Foundation

func repositoryFile(_ relative: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(relative), encoding: .utf8)
}
