import Foundation
import GLibSupport

/// A helper process spoken to in JSON lines: each request is one line on its
/// standard input carrying an `"id"`, each answer one line on its standard
/// output carrying the same id. Answers are matched to their calls by id, so
/// calls may overlap; a line whose id no call waits for (or with none) is an
/// event the helper sent unasked. When the helper exits, every waiting call
/// fails with `.exited` and `onExit` runs once; a new channel over a new
/// process is a restart.
@MainActor
public final class JSONLinesChannel {
    public enum Failure: Error, Equatable, Sendable {
        /// The helper exited (or was stopped) before it answered.
        case exited
        /// It wrote a line longer than the channel takes: it was stopped.
        case lineTooLong(limit: Int)
        /// Reading its output failed.
        case unreadable(String)
        /// The call was cancelled by its caller.
        case cancelled
    }

    public let process: Subprocess
    private var reader: LineReader?
    private var waiting: [String: @MainActor (Result<Data, Failure>) -> Void] = [:]
    private var ended: Failure?
    /// A line that answers no call: the helper's own news.
    public var onEvent: @MainActor (Data) -> Void = { _ in }
    /// Once, when its output ended: why.
    public var onExit: @MainActor (Failure) -> Void = { _ in }

    /// A channel over `arguments` started with pipes to its standard input
    /// and output (its standard error is Hark's). A line may hold at most
    /// `longestLine` bytes.
    public init(arguments: [String], environment: [String: String] = [:],
                longestLine: Int = 16 * 1024 * 1024) throws(SubprocessError) {
        process = try Subprocess(arguments: arguments, environment: environment, pipes: [.input, .output])
        reader = LineReader(process.output!, owner: process, longestLine: longestLine) { [weak self] line in
            self?.received(line)
        } onEnd: { [weak self] end in
            guard let self else { return }
            switch end {
            case .closed: self.finish(.exited)
            case .lineTooLong(let limit): self.finish(.lineTooLong(limit: limit))
            case .failed(let message): self.finish(.unreadable(message))
            }
        }
    }

    /// Whether the helper still answers.
    public var isOpen: Bool { ended == nil }

    /// Sends `request` (whose encoding carries `"id": id`); `answer` gets the
    /// line that answers it, or why none came. From the main loop, once.
    public func send(_ request: Data, id: String, answer: @escaping @MainActor (Result<Data, Failure>) -> Void) {
        if let ended { return MainLoop.post { answer(.failure(ended)) } }
        waiting[id] = answer
        if !process.write(line: String(decoding: request, as: UTF8.self)) {
            // It is gone: the end of its output (on its way) fails the call.
        }
    }

    /// `request`'s answer: the same as `send`, awaited.
    public func call(_ request: Data, id: String) async throws(Failure) -> Data {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, Failure>, Never>) in
            send(request, id: id) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// The call waiting for `id` fails with `.cancelled`; a late answer to it is dropped.
    public func cancel(id: String) {
        waiting.removeValue(forKey: id)?(.failure(.cancelled))
    }

    /// Stops the helper: its input closed and the process ended. Waiting
    /// calls fail with `.exited`, and `onExit` follows.
    public func stop() {
        process.closeInput()
        process.terminate()
    }

    private func received(_ line: String) {
        let data = Data(line.utf8)
        if let id = (try? JSONDecoder().decode(Identified.self, from: data))?.id, let answer = waiting.removeValue(forKey: id) {
            answer(.success(data))
        } else {
            onEvent(data)
        }
    }

    private func finish(_ failure: Failure) {
        guard ended == nil else { return }
        ended = failure
        reader = nil
        process.terminate()  // no-op for one that ended; stops one that wrote too much
        let calls = waiting
        waiting = [:]
        for answer in calls.values { answer(.failure(failure)) }
        onExit(failure)
    }

    private struct Identified: Decodable {
        let id: String?
    }
}
