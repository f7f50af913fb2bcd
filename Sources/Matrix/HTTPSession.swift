import CGLib
import CSoup
import Foundation
import GLibSupport
import Localization

/// An HTTP answer: status, the headers Hark reads, and the whole body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var retryAfter: String?
    public var contentType: String?
    public var body: Data
}

/// Why a request got no answer.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case cancelled
    /// Nothing moved (no byte sent or received) for this long.
    case timedOut(seconds: Int)
    /// The answer is larger than the most Hark reads of it (bytes).
    case tooLarge(limit: Int)
    /// The answer could not be written to its file.
    case unwritable(path: String, reason: String)
    /// The connection could not be made or broke (the transport's own message).
    case transport(String)
    case invalidURL(String)

    public var description: String {
        switch self {
        case .cancelled: return tr("cancelled")
        case .timedOut(let seconds): return trn("no answer in {count} second", "no answer in {count} seconds", seconds)
        case .transport(let message): return message
        case .invalidURL(let url): return tr("“{address}” is not a valid address", ["address": url])
        case .tooLarge(let limit):
            return tr("the answer is larger than {size}, the most Hark accepts", ["size": HTTPFailure.megabytes(limit)])
        case .unwritable(let path, let reason):
            return tr("it could not be written to {path} ({reason})", ["path": path, "reason": reason])
        }
    }
}

extension HTTPFailure {
    /// "100 MB" for a limit in bytes.
    public static func megabytes(_ bytes: Int) -> String {
        tr("{count} MB", ["count": String(bytes / (1024 * 1024))])
    }
}

/// A GCancellable a caller can cancel from any thread (GCancellable is thread-safe).
public final class Cancellable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GCancellable>

    public init() { pointer = g_cancellable_new() }
    deinit { g_object_unref(pointer) }

    public func cancel() { g_cancellable_cancel(pointer) }
    public var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }
}

/// HTTP on GLib's main loop through libsoup 3: every request is asynchronous
/// and cancellable, its answer delivered on the main thread; nothing blocks it.
/// A request fails with `timedOut` when nothing moves for its deadline (no
/// byte sent or received; a long-poll's is longer by the time the server may
/// hold it), not when the whole transfer takes long: a large file over a slow
/// line gets through. An answer is read in chunks, into memory up to a limit
/// or into a file.
@MainActor
public final class HTTPSession {
    private let session: UnsafeMutablePointer<SoupSession>
    /// How long a request may go without a byte moving (plus its server hold time).
    public var deadlineSeconds: Int
    /// The most of an answer read into memory; a larger one fails with `tooLarge`.
    public nonisolated static let answerLimit = 64 * 1024 * 1024

    public init(deadlineSeconds: Int = 30) {
        session = soup_session_new()!
        self.deadlineSeconds = deadlineSeconds
        // No session-wide timeout: each request gets its own deadline below.
        soup_session_set_timeout(session, 0)
        soup_session_set_user_agent(session, "Hark/0.1")
    }

    isolated deinit {
        soup_session_abort(session)
        g_object_unref(UnsafeMutableRawPointer(session))
    }

    /// Sends one request; `completion` runs on the main thread exactly once.
    /// `limit`: the most of the body read (into memory, or into `file` for a
    /// success); more fails the request with `tooLarge`. `file` is created
    /// (or emptied) and written as the body arrives; the answer's `body` is
    /// then empty, unless the server refused (its error is read into memory).
    public func send(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil,
                     contentType: String? = nil, holdMilliseconds: Int = 0, limit: Int = HTTPSession.answerLimit,
                     file: String? = nil, cancellable: Cancellable = Cancellable(),
                     completion: @escaping @MainActor (Result<HTTPResponse, HTTPFailure>) -> Void) {
        guard let message = soup_message_new(method, url) else {
            completion(.failure(.invalidURL(url)))
            return
        }
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers {
            soup_message_headers_append(requestHeaders, name, value)
        }
        if let body {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, contentType ?? "application/octet-stream", bytes)
            g_bytes_unref(bytes)
        }
        let transfer = HTTPTransfer(session: session, message: message, cancellable: cancellable,
                                idleSeconds: deadlineSeconds + (holdMilliseconds + 999) / 1000,
                                limit: limit, file: file, bodySize: body?.count ?? 0, completion: completion)
        transfer.start()
    }

    /// `send` for async code: cancelling the task cancels the request.
    public func send(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil,
                     contentType: String? = nil, holdMilliseconds: Int = 0, limit: Int = HTTPSession.answerLimit,
                     file: String? = nil) async throws(HTTPFailure) -> HTTPResponse {
        let cancellable = Cancellable()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, HTTPFailure>, Never>) in
                send(method: method, url: url, headers: headers, body: body, contentType: contentType,
                     holdMilliseconds: holdMilliseconds, limit: limit, file: file,
                     cancellable: cancellable) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            cancellable.cancel()
        }
        return try result.get()
    }
}

