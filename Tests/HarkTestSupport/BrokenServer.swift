import Foundation

/// A deliberately broken HTTP server on 127.0.0.1, the tests' stand-in for a
/// malicious or failing homeserver (the real Synapse is the server everywhere
/// else): each route gives a canned answer, which may trickle slowly, stall,
/// be far larger than it says, or read the request's body slowly. It is a
/// small Python program, stopped by its pid when the test lets it go. Every
/// answer is logged as `SENT <path> <bytes>` once it ends (sent whole or cut
/// by the client), every request as `GOT <path>`.
public final class BrokenServer: @unchecked Sendable {
    public struct Route: Encodable, Sendable {
        public var status: Int
        public var headers: [String: String]
        /// The body, sent `repeats` times over.
        public var body: Data
        public var repeats: Int
        /// The Content-Length header (nil: the true length; -1: none, the body is sent chunked).
        public var declaredLength: Int?
        /// Bytes per write, and the pause after each (seconds).
        public var chunk: Int
        public var pause: Double
        /// Send the headers and `stallAfter` bytes, then nothing more, never ending.
        public var stallAfter: Int?
        /// Read the request's body `chunk` bytes at a time, with `pause` between.
        public var readSlowly: Bool
        /// False: read the request and never answer, holding the connection open.
        public var answers: Bool

        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), repeats: Int = 1,
                    declaredLength: Int? = nil, chunk: Int = 65536, pause: Double = 0, stallAfter: Int? = nil,
                    readSlowly: Bool = false, answers: Bool = true) {
            self.status = status
            self.headers = headers
            self.body = body
            self.repeats = repeats
            self.declaredLength = declaredLength
            self.chunk = chunk
            self.pause = pause
            self.stallAfter = stallAfter
            self.readSlowly = readSlowly
            self.answers = answers
        }

        /// Reads the request and never answers.
        public static let silent = Route(answers: false)

        /// A JSON answer.
        public static func json(_ text: String, status: Int = 200) -> Route {
            Route(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
    }

    private let child: ChildProcess
    public let url: String

    /// `routes`: by path prefix (the longest that matches; the query is
    /// ignored), or, for a key starting with "~", by a regular expression
    /// matched against the whole "METHOD /path?query" (tried first). Anything
    /// else is answered 404 M_UNRECOGNIZED, as Synapse does.
    /// `smallReceiveBuffer`: the server's sockets take little at a time, so a
    /// slow reader slows the sender down at once (the kernel does not buffer megabytes).
    public init(routes: [String: Route], smallReceiveBuffer: Bool = false) throws {
        struct Configuration: Encodable {
            var routes: [String: Route]
            var smallReceiveBuffer: Bool
        }
        let configuration = try JSONEncoder().encode(Configuration(routes: routes, smallReceiveBuffer: smallReceiveBuffer))
        child = try ChildProcess("/usr/bin/python3", ["-u", "-c", Self.program],
                                 input: String(decoding: configuration, as: UTF8.self))
        let deadline = Date().addingTimeInterval(20)
        var port: String?
        while port == nil, Date() < deadline, child.isRunning {
            port = child.output.split(separator: "\n").first { $0.hasPrefix("PORT ") }.map { String($0.dropFirst(5)) }
            if port == nil { usleep(20_000) }
        }
        guard let port else { throw Failure(output: child.output) }
        url = "http://127.0.0.1:\(port)"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "the broken server did not start: \(output)" }
    }

    /// Every request so far, as "METHOD /path?query".
    public var requests: [String] {
        child.output.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("GOT ") else { return nil }
            return line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init)
        }
    }

    /// How many requests reached `path` (a prefix) so far.
    public func requests(to path: String) -> Int {
        child.output.split(separator: "\n").filter { $0.hasPrefix("GOT \(path)") }.count
    }

    /// The bytes of body sent for each ended answer on `path` (a prefix), in order.
    public func sentBytes(to path: String) -> [Int] {
        child.output.split(separator: "\n").filter { $0.hasPrefix("SENT \(path)") }.compactMap { line in
            line.split(separator: " ").last.flatMap { Int($0) }
        }
    }

    public var log: String { child.output }

    /// Waits up to `seconds` for `count` answers on `path` to have ended.
    @discardableResult
    public func waitForSent(to path: String, count: Int = 1, seconds: Double = 30) -> [Int] {
        let deadline = Date().addingTimeInterval(seconds)
        while sentBytes(to: path).count < count, Date() < deadline { usleep(20_000) }
        return sentBytes(to: path)
    }

    public func stop() {
        if child.isRunning { child.process.terminate() }
        child.waitForExit(seconds: 10)
    }

    private static let program = #"""
import base64, json, re, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

config = json.loads(sys.stdin.read())
routes = config["routes"]

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def answer(self):
        path = self.path.split("?")[0]
        print("GOT %s %s %s" % (path, self.command, self.path), flush=True)
        request = self.command + " " + self.path
        route = next((r for key, r in routes.items() if key.startswith("~") and re.fullmatch(key[1:], request)), None)
        matches = [p for p in routes if not p.startswith("~") and path.startswith(p)]
        if route is None and matches:
            route = routes[max(matches, key=len)]
        if route is None:
            body = b'{"errcode": "M_UNRECOGNIZED", "error": "Unrecognized request"}'
            self.send_response(404); self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body); return
        length = int(self.headers.get("Content-Length") or 0)
        while length > 0:
            got = self.rfile.read(min(length, route["chunk"] if route["readSlowly"] else 65536))
            if not got: break
            length -= len(got)
            if route["readSlowly"]: time.sleep(route["pause"])
        if not route["answers"]:
            while True: time.sleep(1)
        body = base64.b64decode(route["body"])
        total = len(body) * route["repeats"]
        self.send_response(route["status"])
        for name, value in route["headers"].items(): self.send_header(name, value)
        declared = route.get("declaredLength")
        chunked = declared == -1
        if chunked: self.send_header("Transfer-Encoding", "chunked")
        else: self.send_header("Content-Length", str(total if declared is None else declared))
        self.end_headers()
        sent = 0
        try:
            stall = route.get("stallAfter")
            pause = 0 if route["readSlowly"] else route["pause"]
            data = body * (2 + route["chunk"] // max(1, len(body)))
            while sent < total:
                if stall is not None and sent >= stall:
                    self.wfile.flush()
                    while True: time.sleep(1)
                offset = sent % len(body)
                piece = data[offset : offset + min(route["chunk"], total - sent)]
                if stall is not None: piece = piece[: max(1, stall - sent)]
                self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n" if chunked else piece)
                sent += len(piece)
                if pause: self.wfile.flush(); time.sleep(pause)
            if chunked: self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        print("SENT %s %d" % (path, sent), flush=True)
    do_GET = do_POST = do_PUT = do_DELETE = answer

class Server(ThreadingHTTPServer):
    daemon_threads = True
    def server_bind(self):
        if config["smallReceiveBuffer"]:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        super().server_bind()

server = Server(("127.0.0.1", 0), Handler)
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
"""#
}
