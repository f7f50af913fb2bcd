import CGLib
import CSoup
import Foundation
import GLibSupport

/// One request in flight through libsoup: sends it, reads the answer in
/// chunks (into memory, or into a file as it arrives) up to a limit, and
/// fails it when nothing moves for `idleSeconds`: every chunk of the request
/// body written and every chunk of the answer read starts that wait again.
/// The kernel takes megabytes of a body at once and sends them at the line's
/// pace: a large body goes on a connection of its own, whose send queue is
/// watched shrinking as the bytes leave. It keeps itself alive through its
/// pending callbacks until it completes.
@MainActor
final class HTTPTransfer {
    private static let chunkSize = 64 * 1024
    /// The most of a refusal's body read when the success would go to a file.
    private static let refusalLimit = 1024 * 1024
    /// A body at least this large is watched leaving the kernel's send queue.
    private static let watchedBodySize = 64 * 1024

    private let session: UnsafeMutablePointer<SoupSession>
    private let message: OpaquePointer
    private let cancellable: Cancellable
    private let idleSeconds: Int
    private var limit: Int
    private let file: String?
    private let completion: @MainActor (Result<HTTPResponse, HTTPFailure>) -> Void

    private var stream: UnsafeMutablePointer<GInputStream>?
    private var output: FileHandle?
    private var body = Data()
    private var count = 0
    private var deadline: Source?
    private var timedOut = false
    private var finished = false
    private var progressHandler: UInt = 0
    private var networkHandler: UInt = 0
    /// The connection's socket (a reference) while a large body is sent, and its send queue's length.
    private var socket: UnsafeMutablePointer<GSocket>?
    private var queued = Int32.max
    private var queueWatch: Source?

    init(session: UnsafeMutablePointer<SoupSession>, message: OpaquePointer, cancellable: Cancellable,
         idleSeconds: Int, limit: Int, file: String?, bodySize: Int,
         completion: @escaping @MainActor (Result<HTTPResponse, HTTPFailure>) -> Void) {
        self.session = session
        self.message = message
        self.cancellable = cancellable
        self.idleSeconds = idleSeconds
        self.limit = limit
        self.file = file
        self.completion = completion
        if bodySize >= Self.watchedBodySize { watchSendQueue() }
    }

    private func watchSendQueue() {
        soup_message_add_flags(message, SOUP_MESSAGE_NEW_CONNECTION)
        networkHandler = Signal.connectIntPointer(UnsafeMutableRawPointer(message), "network-event") { [weak self] event, stream in
            guard let self, event == Int(G_SOCKET_CLIENT_CONNECTED.rawValue), self.socket == nil, let stream,
                  g_type_check_instance_is_a(stream.assumingMemoryBound(to: GTypeInstance.self),
                                             g_socket_connection_get_type()) != 0,
                  let socket = g_socket_connection_get_socket(stream.assumingMemoryBound(to: GSocketConnection.self)) else { return }
            g_object_ref(socket)
            self.socket = socket
        }
        queueWatch = MainLoop.timeout(milliseconds: 250) { [weak self] in
            guard let self, !self.finished else { return false }
            if let socket = self.socket {
                var pending: Int32 = 0
                if ioctl(g_socket_get_fd(socket), UInt(TIOCOUTQ), &pending) == 0 {
                    if pending < self.queued { self.restartDeadline() }
                    self.queued = pending
                }
            }
            return true
        }
    }

    func start() {
        restartDeadline()
        progressHandler = Signal.connectInt(UnsafeMutableRawPointer(message), "wrote-body-data") { [weak self] _ in
            self?.restartDeadline()
        }
        let box = HandlerBox<AsyncReadyHandler> { [self] _, result in answered(result) }
        soup_session_send_async(session, message, G_PRIORITY_DEFAULT, cancellable.pointer,
                                asyncReadyTrampoline, box.retainedPointer())
    }

    private func restartDeadline() {
        deadline?.remove()
        deadline = MainLoop.timeout(milliseconds: UInt32(idleSeconds * 1000)) { [weak self] in
            self?.timedOut = true
            self?.cancellable.cancel()
            return false
        }
    }

    private func answered(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let stream = soup_session_send_finish(session, result, &error)
        if let error {
            if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }
            fail(GLibError(consuming: error))
            return
        }
        guard let stream else { return finish(.failure(.transport("no answer"))) }
        self.stream = stream
        restartDeadline()
        let status = Int(soup_message_get_status(message).rawValue)
        let headers = soup_message_get_response_headers(message)
        if soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH,
           soup_message_headers_get_content_length(headers) > Int64(limit) {
            return finish(.failure(.tooLarge(limit: limit)))  // said at once: nothing of it is read
        }
        if let file {
            if (200..<300).contains(status) {
                let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else {
                    return finish(.failure(.unwritable(path: file, reason: String(cString: strerror(errno)))))
                }
                output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            } else {
                limit = min(limit, Self.refusalLimit)
            }
        }
        readNext()
    }

    private func readNext() {
        guard let stream else { return }
        let box = HandlerBox<AsyncReadyHandler> { [self] _, result in read(result) }
        g_input_stream_read_bytes_async(stream, gsize(Self.chunkSize), G_PRIORITY_DEFAULT, cancellable.pointer,
                                        asyncReadyTrampoline, box.retainedPointer())
    }

    private func read(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let bytes = g_input_stream_read_bytes_finish(stream, result, &error)
        if let error {
            if let bytes { g_bytes_unref(bytes) }
            return fail(GLibError(consuming: error))
        }
        guard let bytes else { return finish(.failure(.transport("no answer"))) }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        let start = g_bytes_get_data(bytes, &size)
        guard size > 0, let start else { return succeed() }
        restartDeadline()
        count += Int(size)
        if count > limit { return finish(.failure(.tooLarge(limit: limit))) }
        let chunk = Data(bytes: start, count: Int(size))
        if let output {
            do { try output.write(contentsOf: chunk) } catch {
                return finish(.failure(.unwritable(path: file ?? "", reason: "\(error)")))
            }
        } else {
            body.append(chunk)
        }
        readNext()
    }

    private func succeed() {
        if let output {
            do { try output.close() } catch {
                self.output = nil
                return finish(.failure(.unwritable(path: file ?? "", reason: "\(error)")))
            }
            self.output = nil
        }
        let headers = soup_message_get_response_headers(message)
        let header = { (name: String) in soup_message_headers_get_one(headers, name).map { String(cString: $0) } }
        finish(.success(HTTPResponse(status: Int(soup_message_get_status(message).rawValue),
                                     retryAfter: header("Retry-After"), contentType: header("Content-Type"),
                                     body: body)))
    }

    private func fail(_ failure: GLibError) {
        if timedOut {
            finish(.failure(.timedOut(seconds: idleSeconds)))
        } else if failure.domain == "g-io-error-quark" && failure.code == Int32(G_IO_ERROR_CANCELLED.rawValue) {
            finish(.failure(.cancelled))
        } else {
            finish(.failure(.transport(failure.message)))
        }
    }

    private func finish(_ result: Result<HTTPResponse, HTTPFailure>) {
        guard !finished else { return }
        finished = true
        deadline?.remove()
        Signal.disconnect(UnsafeMutableRawPointer(message), progressHandler)
        if networkHandler != 0 { Signal.disconnect(UnsafeMutableRawPointer(message), networkHandler) }
        queueWatch?.remove()
        if let socket { g_object_unref(socket) }
        socket = nil
        try? output?.close()
        output = nil
        // Dropping the stream before its end closes the connection: the rest is never read.
        if let stream { g_object_unref(UnsafeMutableRawPointer(stream)) }
        stream = nil
        g_object_unref(UnsafeMutableRawPointer(message))
        completion(result)
    }
}
