import Foundation

/// Cuts a file into chunks and parses them with libical on a second thread, while the reader's
/// thread resolves and expands the events of the previous chunk; the same thread also frees the
/// chunks the reader is done with. When the reader is ahead (the chunk it needs is not parsed
/// yet), it parses the next chunk nobody has claimed itself rather than wait: both threads parse.
///
/// libical spends most of the time of a large import parsing and freeing its trees. libical 3 keeps
/// its scratch buffers and error state per thread (pthread keys) and locks its shared time zone
/// tables; each chunk is a tree of its own, touched by one thread at a time. At most `capacity`
/// parsed chunks wait (about 2,000 VEVENTs each; one more when the reader parsed one ahead),
/// which bounds memory. The VEVENTs a `SkipRule` leaves out never reach libical
/// (`layout.skipped`).
final class ParseAhead: @unchecked Sendable {
    private let condition = NSCondition()
    private let bytes: [UInt8]
    private let capacity: Int
    private var ready: [Int: LibicalDocument?] = [:]
    private var total: Int?
    private var layoutFound: CalendarLayout?
    /// The next chunk `take()` returns.
    private var next = 0
    /// The lowest chunk no thread has started parsing.
    private var unclaimed = 0
    private var done: [LibicalDocument] = []
    private var closed = false

    /// Starts cutting and parsing `bytes` (a calendar file without its BOM) on a new thread,
    /// leaving out what `rule` allows.
    init(bytes: [UInt8], skipping rule: SkipRule? = nil, capacity: Int = 2) {
        self.bytes = bytes
        self.capacity = capacity
        let thread = Thread { [self] in
            let layout = CalendarLayout(bytes: bytes, skipping: rule)
            let count = layout.chunkCount
            condition.lock()
            total = count
            layoutFound = layout
            condition.broadcast()
            while true {
                while !closed, unclaimed < count, ready.count >= capacity, done.isEmpty { condition.wait() }
                if !done.isEmpty {
                    let finished = done
                    done.removeAll()
                    condition.unlock()
                    _ = finished  // freed here, on this thread, when the array goes away
                    condition.lock()
                    continue
                }
                guard !closed, unclaimed < count else { break }
                let k = unclaimed
                unclaimed += 1
                condition.unlock()
                let document = parse(k, of: layout)
                condition.lock()
                ready[k] = .some(document)
                condition.broadcast()
            }
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

    private func parse(_ k: Int, of layout: CalendarLayout) -> LibicalDocument? {
        let chunk = layout.chunk(k, of: bytes)
        return chunk.withUnsafeBytes { LibicalDocument(bytes: $0) }
    }

    /// The next parsed chunk, in order (`nil` inside when libical found nothing), or `nil` at the end.
    func take() -> LibicalDocument?? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            guard let total, let layout = layoutFound else {
                condition.wait()
                continue
            }
            guard next < total else { return nil }
            if let document = ready.removeValue(forKey: next) {
                next += 1
                condition.broadcast()
                return .some(document)
            }
            guard unclaimed < total, ready.count <= capacity else {
                condition.wait()  // the chunk needed is being parsed on the other thread
                continue
            }
            // Nobody parses the chunk needed yet, or the other thread does: parse the next one
            // nobody has claimed here instead of waiting.
            let k = unclaimed
            unclaimed += 1
            condition.unlock()
            let document = parse(k, of: layout)
            condition.lock()
            if k == next {
                next += 1
                condition.broadcast()
                return .some(document)
            }
            ready[k] = .some(document)
            condition.broadcast()
        }
    }

    /// How the file was cut: where it ends inside a component, the VEVENTs left open or left out
    /// (waits until the file has been cut).
    var layout: CalendarLayout {
        condition.lock()
        defer { condition.unlock() }
        while layoutFound == nil { condition.wait() }
        return layoutFound!
    }

    /// Whether the file ends inside a component (known once the file has been cut).
    var truncation: CalendarLayout.Truncation? { layout.truncation }

    /// Byte offsets of VEVENTs left open before the next one (known once the file has been cut).
    var unclosedEvents: [Int] { layout.unclosedEvents }

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
