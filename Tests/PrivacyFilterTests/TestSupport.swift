import Foundation

let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func repositoryFile(_ relative: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(relative), encoding: .utf8)
}
