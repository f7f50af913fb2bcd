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
    /// No answer within the request's deadline.
    case timedOut(seconds: Int)
    /// The connection could not be made or broke (the transport's own message).
    case transport(String)
    case invalidURL(String)

    public var description: String {
        switch self {
        case .cancelled: return tr("cancelled")
        case .timedOut(let seconds): return trn("no answer in {count} second", "no answer in {count} seconds", seconds)
        case .transport(let message): return message
        case .invalidURL(let url): return tr("“{address}” is not a valid address", ["address": url])
        }
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
/// Each request has a deadline of its own (a long-poll's is longer), after
/// which it is cancelled and fails with `timedOut`.
@MainActor
public final class HTTPSession {
    private let session: UnsafeMutablePointer<SoupSession>
    /// Added to a request's server hold time: how long an answer may take.
    public var deadlineSeconds: Int

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
    public func send(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil,
                     contentType: String? = nil, holdMilliseconds: Int = 0, cancellable: Cancellable = Cancellable(),
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
        let seconds = deadlineSeconds + (holdMilliseconds + 999) / 1000
        let timedOut = TimeoutFlag()
        let deadline = MainLoop.timeout(milliseconds: UInt32(seconds * 1000)) {
            timedOut.fired = true
            cancellable.cancel()
            return false
        }
        let session = self.session
        let box = HandlerBox<AsyncReadyHandler> { _, result in
            deadline.remove()
            var error: UnsafeMutablePointer<GError>?
            let bytes = soup_session_send_and_read_finish(session, result, &error)
            defer { g_object_unref(UnsafeMutableRawPointer(message)) }
            if let error {
                let failure = GLibError(consuming: error)
                if bytes != nil { g_bytes_unref(bytes) }
                if timedOut.fired {
                    completion(.failure(.timedOut(seconds: seconds)))
                } else if failure.domain == "g-io-error-quark" && failure.code == Int32(G_IO_ERROR_CANCELLED.rawValue) {
                    completion(.failure(.cancelled))
                } else {
                    completion(.failure(.transport(failure.message)))
                }
                return
            }
            var data = Data()
            if let bytes {
                var size: gsize = 0
                if let start = g_bytes_get_data(bytes, &size), size > 0 {
                    data = Data(bytes: start, count: Int(size))
                }
                g_bytes_unref(bytes)
            }
            let responseHeaders = soup_message_get_response_headers(message)
            let header = { (name: String) in soup_message_headers_get_one(responseHeaders, name).map { String(cString: $0) } }
            completion(.success(HTTPResponse(status: Int(soup_message_get_status(message).rawValue),
                                             retryAfter: header("Retry-After"),
                                             contentType: header("Content-Type"), body: data)))
        }
        soup_session_send_and_read_async(session, message, G_PRIORITY_DEFAULT, cancellable.pointer,
                                         asyncReadyTrampoline, box.retainedPointer())
    }

    /// `send` for async code: cancelling the task cancels the request.
    public func send(method: String, url: String, headers: [(String, String)] = [], body: Data? = nil,
                     contentType: String? = nil, holdMilliseconds: Int = 0) async throws(HTTPFailure) -> HTTPResponse {
        let cancellable = Cancellable()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, HTTPFailure>, Never>) in
                send(method: method, url: url, headers: headers, body: body, contentType: contentType,
                     holdMilliseconds: holdMilliseconds, cancellable: cancellable) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            cancellable.cancel()
        }
        return try result.get()
    }
}

@MainActor
private final class TimeoutFlag {
    var fired = false
}
