import DicteeTestSupport
import Foundation
import Testing

func repositoryFile(_ relative: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(relative), encoding: .utf8)
}

/// The rows of a tab-separated fixture of the repository (`Fixtures/privacy/*.tsv`), its header
/// line left out, each row's `columns` fields. A missing file or a row with another number of
/// fields is recorded as an issue naming the file and the line (never silently skipped).
func fixtureRows(_ relative: String, columns: Int) -> [[String]] {
    guard let text = try? repositoryFile(relative) else {
        Issue.record("\(relative) is missing")
        return []
    }
    var rows: [[String]] = []
    for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().dropFirst() where !line.isEmpty {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard f.count == columns else {
            Issue.record("\(relative):\(k + 1): \(f.count) fields, \(columns) expected")
            continue
        }
        rows.append(f)
    }
    return rows
}
