import CGLib
import Foundation
import GLibSupport

/// Reads a stream line by line, asynchronously on GLib's main loop, holding
/// at most `longestLine` bytes of a line: a line longer than that (a broken
/// or hostile program writing without newlines) ends the reading instead of
/// growing without bound. A last line without a newline still counts.
@MainActor
public final class LineReader {
    public enum End: Equatable, Sendable {
        /// The stream ended (the program closed it or exited).
        case closed
        /// A line grew past the limit; nothing more was read.
        case lineTooLong(limit: Int)
        /// Reading failed (GIO's message).
        case failed(String)
    }

    /// The most read at once.
    static let chunkSize = 64 * 1024
    private let stream: UnsafeMutablePointer<GInputStream>
    private let owner: AnyObject?  // whatever keeps the stream alive (its process)
    public let longestLine: Int
    private let cancellable = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()!))
    private var pending: [UInt8] = []
    private var ended = false
    private let onLine: @MainActor (String) -> Void
    private let onEnd: @MainActor (End) -> Void

    /// Starts reading `stream` (kept alive by `owner`); `onLine` gets each
    /// line without its newline, `onEnd` comes once after the last.
    public init(_ stream: UnsafeMutablePointer<GInputStream>, owner: AnyObject?, longestLine: Int,
                onLine: @escaping @MainActor (String) -> Void, onEnd: @escaping @MainActor (End) -> Void) {
        self.stream = stream
        self.owner = owner
        self.longestLine = longestLine
        self.onLine = onLine
        self.onEnd = onEnd
        readMore()
    }

    /// Stops reading; `onEnd` is not called.
    public func cancel() {
        ended = true
        g_cancellable_cancel(cancellable.as(GCancellable.self))
    }

    private func readMore() {
        let box = HandlerBox<AsyncReadyHandler> { [weak self] source, result in
            guard let source, let result else { return }
            var error: UnsafeMutablePointer<GError>?
            let bytes = g_input_stream_read_bytes_finish(
                UnsafeMutableRawPointer(source).assumingMemoryBound(to: GInputStream.self), result, &error)
            defer { if let bytes { g_bytes_unref(bytes) } }
            let failure = error.map { GLibError(consuming: $0) }
            guard let self, !self.ended else { return }
            if let failure { return self.end(.failed(failure.message)) }
            var size: gsize = 0
            guard let bytes, let data = g_bytes_get_data(bytes, &size), size > 0 else {
                if !self.pending.isEmpty { self.emit(self.pending[...]) }
                return self.end(.closed)
            }
            self.take(UnsafeRawBufferPointer(start: data, count: Int(size)))
            if !self.ended { self.readMore() }
        }
        g_input_stream_read_bytes_async(stream, gsize(Self.chunkSize), G_PRIORITY_DEFAULT,
                                        cancellable.as(GCancellable.self), asyncReadyTrampoline, box.retainedPointer())
    }

    private func take(_ chunk: UnsafeRawBufferPointer) {
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if pending.count + (newline - start) > longestLine { return end(.lineTooLong(limit: longestLine)) }
            pending.append(contentsOf: chunk[start..<newline])
            let line = pending
            pending.removeAll(keepingCapacity: true)
            emit(line[...])
            if ended { return }
            start = newline + 1
        }
        if pending.count + (chunk.endIndex - start) > longestLine { return end(.lineTooLong(limit: longestLine)) }
        pending.append(contentsOf: chunk[start...])
    }

    private func emit(_ line: ArraySlice<UInt8>) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        onLine(String(decoding: line, as: UTF8.self))
    }

    private func end(_ reason: End) {
        guard !ended else { return }
        ended = true
        pending = []
        g_cancellable_cancel(cancellable.as(GCancellable.self))
        onEnd(reason)
    }

    isolated deinit {
        g_cancellable_cancel(cancellable.as(GCancellable.self))
    }
}
