import Foundation

/// A deliberately broken HTTP server of the test's own on 127.0.0.1 (through
/// `scripts/broken-homeserver`): canned answers by method and path, for server
/// faults a real Synapse never makes (rate limits, huge or slow bodies,
/// stalls). Stopped, by its pid, when released. Every other server in the
/// tests is the real Synapse.
public final class BrokenHomeserver: @unchecked Sendable {
    public struct Route: Encodable, Sendable {
        public var method: String
        /// A regular expression for the whole path, query included.
        public var path: String
        public var status: Int
        public var body: String
        public var headers: [String: String]
        /// The body sent this many times over.
        public var repetitions: Int
        /// A Content-Length to announce instead of the true one.
        public var contentLength: Int?
        /// Seconds before the answer starts.
        public var delay: Double
        /// Seconds between 64 KiB pieces of the body.
        public var chunkDelay: Double
        /// Headers, then nothing more.
        public var stall: Bool

        public init(_ method: String, _ path: String, status: Int = 200, body: String = "{}",
                    headers: [String: String] = [:], repetitions: Int = 1, contentLength: Int? = nil,
                    delay: Double = 0, chunkDelay: Double = 0, stall: Bool = false) {
            self.method = method
            self.path = path
            self.status = status
            self.body = body
            self.headers = headers
            self.repetitions = repetitions
            self.contentLength = contentLength
            self.delay = delay
            self.chunkDelay = chunkDelay
            self.stall = stall
        }

        enum CodingKeys: String, CodingKey {
            case method, path, status, body, headers, stall, delay
            case repetitions = "repeat"
            case contentLength = "content_length"
            case chunkDelay = "chunk_delay"
        }
    }

    public let folder: ScratchFolder
    private let child: ChildProcess
    /// `http://127.0.0.1:PORT`.
    public let url: String

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/broken-homeserver").path
    }

    public init(routes: [Route]) throws {
        folder = try ScratchFolder()
        let config = folder.path("routes.json")
        try JSONEncoder().encode(routes).write(to: URL(fileURLWithPath: config))
        child = try ChildProcess("/usr/bin/python3", [Self.script, config])
        let deadline = Date().addingTimeInterval(30)
        var line: Substring?
        while line == nil, child.isRunning, Date() < deadline {
            line = child.output.split(separator: "\n").first { $0.hasPrefix("http://") }
            if line == nil { usleep(20_000) }
        }
        guard let line else { throw BrokenHomeserverFailed(output: child.output) }
        url = String(line)
    }

    /// The requests it answered so far, as "METHOD PATH".
    public var requests: [String] {
        child.output.split(separator: "\n").compactMap { line in
            line.hasPrefix("REQUEST ") ? String(line.dropFirst("REQUEST ".count)) : nil
        }
    }
}

public struct BrokenHomeserverFailed: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "The broken test server did not start: \(output)" }
}
