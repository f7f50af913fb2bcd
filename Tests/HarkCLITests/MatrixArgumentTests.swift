import Foundation
import HarkTestSupport
import XCTest

/// The Matrix commands without a server or keyring: what they need to be
/// told, and the sentence when no account is signed in. (With a server:
/// MatrixServerTests/MatrixCommandTests.)
final class MatrixArgumentTests: XCTestCase {
    private func hark(_ arguments: [String], in home: ScratchFolder) throws -> (status: Int32?, output: String) {
        try ChildProcess.run(harkExecutable, arguments, environment: ["XDG_DATA_HOME": home.path("data")])
    }

    func testMissingArgumentsAreUsageErrors() throws {
        let home = try ScratchFolder()
        for (arguments, reason) in [
            (["account"], "'account' needs login, logout, status or recover"),
            (["account", "signin"], "'account' takes login, logout, status or recover, not 'signin'"),
            (["account", "login", "--user", "ann"], "'account login' needs --homeserver URL"),
            (["account", "login", "--homeserver", "example.org"], "'account login' needs --user NAME"),
            (["send", "some-id"], "'send' needs ROOM_ID"),
            (["send", "some-id", "--with-transcript"], "'send' needs ROOM_ID"),
            (["send", "some-id", "!room", "--with-words"], "unknown option '--with-words' for 'send'"),
            (["join"], "'join' needs ROOM_ID"),
            (["sync", "--forever"], "unknown option '--forever' for 'sync'"),
            (["rooms", "extra"], "unexpected argument 'extra' for 'rooms'"),
            (["accept-identity"], "'accept-identity' needs USER_ID"),
        ] {
            let (status, output) = try hark(arguments, in: home)
            XCTAssertEqual(status, 2, "\(arguments): \(output)")
            XCTAssertTrue(output.contains(reason), "\(arguments): \(output)")
        }
    }

    func testWithoutAnAccountEachCommandSaysSoAndChangesNothing() throws {
        let home = try ScratchFolder()
        var (status, output) = try hark(["account", "status", "--json"], in: home)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines),
                       #"{"cross_signed":null,"device_id":null,"homeserver":null,"queued":0,"state":"signed_out","user_id":null}"#)
        (status, output) = try hark(["account", "status"], in: home)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "Not signed in.")
        for arguments in [["rooms"], ["sync", "--once"], ["send", "x", "!room"], ["join", "!room"]] {
            (status, output) = try hark(arguments, in: home)
            XCTAssertEqual(status, 1, "\(arguments): \(output)")
            XCTAssertTrue(output.contains("not signed in to a Matrix account (sign in with 'hark account login')"),
                          "\(arguments): \(output)")
        }
        (status, output) = try hark(["account", "logout"], in: home)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("not signed in"), output)
        (status, output) = try hark(["accept-identity", "@bob:example.org"], in: home)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("@bob:example.org’s identity has not changed: there is nothing to accept."), output)
        (status, output) = try hark(["list", "--json"], in: home)
        XCTAssertEqual(output.trimmingCharacters(in: .whitespacesAndNewlines), "[]")
    }

    func testListJSONSaysWhereEachMessageCameFrom() throws {
        let home = try ScratchFolder()
        var (status, output) = try hark(["record", "--raw", "--duration", "0.3", "--source", "audiotestsrc is-live=true"],
                                        in: home)
        XCTAssertEqual(status, 0, output)
        (status, output) = try hark(["list", "--json"], in: home)
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.first?["origin"] as? String, "recorded")
        for key in ["room_id", "sender", "event_id", "send_state", "transcript_source"] {
            XCTAssertTrue(listed.first?[key] is NSNull, "\(key) is null for a local message")
        }
        XCTAssertEqual(listed.first?["unread"] as? Bool, false)
        // Keys in sorted order, as JSONSerialization writes them.
        let sorted = try JSONSerialization.data(withJSONObject: listed, options: [.sortedKeys, .withoutEscapingSlashes])
        XCTAssertEqual(String(decoding: sorted, as: UTF8.self).count, line.count)
    }
}
