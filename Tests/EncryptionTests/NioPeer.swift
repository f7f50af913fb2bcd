import Foundation
import HelperProcesses
import XCTest

/// The independent Matrix client of the tests (Tests/Peer/nio-peer.py:
/// matrix-nio with vodozemac, none of Hark's code) signed in as one user,
/// driven over the same kind of JSON-lines channel as Hark's helpers.
@MainActor
final class NioPeer {
    private let channel: JSONLinesChannel
    private var nextID = 0

    /// The peer's Python (scripts/run-tests installs it once), or the test skipped saying how to install it.
    static func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["HARK_NIO_VENV"] ?? InstalledEngine.root + "/.build/nio-venv"
        guard FileManager.default.isExecutableFile(atPath: venv + "/bin/python") else {
            throw XCTSkip("the nio peer is not installed in \(venv): run Tests/Peer/install-nio-peer \(venv) (scripts/run-tests does)")
        }
        return venv + "/bin/python"
    }

    init(homeserver: String, user: String, password: String, store: String) throws {
        channel = try JSONLinesChannel(arguments: [try Self.python(), InstalledEngine.root + "/Tests/Peer/nio-peer.py",
                                                   homeserver, user, password, store],
                                       environment: ["PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"])
    }

    /// Runs `command` with `arguments`; its answer, or the peer's error thrown.
    @discardableResult
    func call(_ command: String, _ arguments: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        var request = arguments
        request["cmd"] = command
        request["id"] = String(nextID)
        let answer = object(try await channel.call(json(request), id: String(nextID)))
        if let error = answer["error"] as? String { throw PeerFailed(command: command, message: error) }
        return answer
    }

    func stop() {
        channel.stop()
    }
}

struct PeerFailed: Error, CustomStringConvertible {
    let command: String
    let message: String
    var description: String { "nio peer: \(command) failed: \(message)" }
}
