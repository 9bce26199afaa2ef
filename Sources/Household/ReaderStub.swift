import Ingest
// TEMPORARY STUB (helper-80 adds these to Ingest)
extension CalendarReader {
    public func read(documents: [(name: String, bytes: [UInt8])]) -> IngestResult {
        guard let first = documents.first else { return read(paths: []) }
        var all = read(bytes: first.bytes, name: first.name)
        for d in documents.dropFirst() {
            let r = read(bytes: d.bytes, name: d.name)
            all.occurrences += r.occurrences; all.diagnostics += r.diagnostics; all.fileErrors += r.fileErrors
            all.eventCount += r.eventCount; all.incompleteFiles.formUnion(r.incompleteFiles)
        }
        return all
    }
}
extension IngestResult {
    public var nextEntry: [String: Int64] { [:] }
}
