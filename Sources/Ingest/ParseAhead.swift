import Foundation

/// Cuts a file into chunks and parses them with libical on a second thread, while the reader's
/// thread resolves and expands the events of the previous chunk; the same thread also frees the
/// chunks the reader is done with.
///
/// libical spends most of the time of a large import parsing and freeing its trees. libical 3 keeps
/// its scratch buffers and error state per thread (pthread keys) and locks its shared time zone
/// tables; each chunk is a tree of its own, touched by one thread at a time. At most `capacity`
/// parsed chunks wait (about 2,000 VEVENTs each), which bounds memory.
final class ParseAhead: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: LibicalDocument?] = [:]
    private var total: Int?
    private var truncationFound: CalendarLayout.Truncation??
    private var unclosedFound: [Int]?
    private var next = 0
    private var done: [LibicalDocument] = []
    private var closed = false

    /// Starts cutting and parsing `bytes` (a calendar file without its BOM) on a new thread.
    init(bytes: [UInt8], capacity: Int = 2) {
        let thread = Thread { [self] in
            let layout = CalendarLayout(bytes: bytes)
            let count = layout.chunkCount
            condition.lock()
            total = count
            truncationFound = .some(layout.truncation)
            unclosedFound = layout.unclosedEvents
            condition.broadcast()
            condition.unlock()
            for k in 0..<count {
                let chunk = layout.chunk(k, of: bytes)
                let document = chunk.withUnsafeBytes { LibicalDocument(bytes: $0) }
                condition.lock()
                while ready.count >= capacity { condition.wait() }
                ready[k] = .some(document)
                let finished = done
                done.removeAll()
                condition.broadcast()
                condition.unlock()
                _ = finished  // freed here, on this thread, when the array goes away
            }
            condition.lock()
            while !closed || !done.isEmpty {
                if !done.isEmpty {
                    let finished = done
                    done.removeAll()
                    condition.unlock()
                    _ = finished
                    condition.lock()
                    continue
                }
                condition.wait()
            }
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next parsed chunk, in order (`nil` inside when libical found nothing), or `nil` at the end.
    func take() -> LibicalDocument?? {
        condition.lock()
        defer { condition.unlock() }
        while ready[next] == nil, total.map({ next < $0 }) ?? true { condition.wait() }
        guard let total, next < total else { return nil }
        let document = ready.removeValue(forKey: next)!
        next += 1
        condition.broadcast()
        return .some(document)
    }

    /// Whether the file ends inside a component (known once the file has been cut).
    var truncation: CalendarLayout.Truncation? {
        condition.lock()
        defer { condition.unlock() }
        while truncationFound == nil { condition.wait() }
        return truncationFound!
    }

    /// Byte offsets of VEVENTs left open before the next one (known once the file has been cut).
    var unclosedEvents: [Int] {
        condition.lock()
        defer { condition.unlock() }
        while unclosedFound == nil { condition.wait() }
        return unclosedFound!
    }

    /// Hands back a chunk the reader has finished with, to be freed on the parsing thread.
    func recycle(_ document: LibicalDocument?) {
        guard let document else { return }
        condition.lock()
        done.append(document)
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the parsing thread end once it has freed what it was handed.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
