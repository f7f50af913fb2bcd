import Foundation

/// A real Matrix homeserver (Synapse) of the test's own, through
/// `scripts/synapse`: 127.0.0.1 on a free port, in a scratch folder, stopped
/// by its pid when the test is done with it. `scripts/run-tests` installs
/// Synapse first (`scripts/synapse install`).
public final class SynapseServer: @unchecked Sendable {
    public let folder: ScratchFolder
    /// `http://127.0.0.1:PORT`.
    public private(set) var url: String = ""

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/synapse").path
    }

    public init() throws {
        folder = try ScratchFolder()
        try start()
    }

    deinit { stop() }

    /// Starts the server (again, after `stop`: the same port and data).
    public func start() throws {
        let (status, output) = try ChildProcess.run(Self.script, ["start", folder.url.path], seconds: 120)
        guard status == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("http://") }) else {
            throw SynapseFailed(output: output)
        }
        url = String(line)
    }

    /// A user with this password (not an administrator).
    public func register(_ user: String, password: String) throws {
        let (status, output) = try ChildProcess.run(Self.script, ["register", folder.url.path, user, password],
                                                    seconds: 60)
        guard status == 0 else { throw SynapseFailed(output: output) }
    }

    /// Stops the server by its pid and waits for it to be gone.
    public func stop() {
        _ = try? ChildProcess.run(Self.script, ["stop", folder.url.path], seconds: 30)
    }

    /// The server's log, for a failure's message.
    public var log: String {
        (try? String(contentsOfFile: folder.path("homeserver.log"), encoding: .utf8)) ?? ""
    }
}

public struct SynapseFailed: Error, CustomStringConvertible {
    public let output: String
    public init(output: String) { self.output = output }
    public var description: String { "Synapse test server failed: \(output)" }
}

/// The homeserver a test class shares: started once in its `class func
/// setUp`, with its users registered, and stopped in `tearDown`.
public enum SharedHomeserver {
    public static let password = "correct horse battery staple"

    /// A new server with `users` (all with `password`), or nil with the
    /// reason printed (each test then fails, saying there is no homeserver).
    public static func start(users: [String]) -> SynapseServer? {
        do {
            let server = try SynapseServer()
            for user in users { try server.register(user, password: password) }
            return server
        } catch {
            print("Synapse did not start: \(error)")
            return nil
        }
    }
}
