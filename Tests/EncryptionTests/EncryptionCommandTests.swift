import Foundation
import GLibSupport
import HarkTestSupport
import XCTest

/// The command line in an encrypted direct chat, against Synapse with a
/// keyring of the test's own and a matrix-nio peer that shares keys only
/// with cross-signed devices: `hark dm`, `account recover --new`, `account
/// status --json`, `send` and `sync` encrypting and decrypting, and a
/// changed identity said by `sync` and `rooms --json` until `accept-identity`.
final class EncryptionCommandTests: XCTestCase {
    /// `hark` with its data in `home`.
    private static func hark(_ home: ScratchFolder, _ arguments: [String], input: String? = nil) throws -> (status: Int32?, output: String) {
        let child = try ChildProcess(harkExecutable, arguments, environment: ["XDG_DATA_HOME": home.url.path], input: input)
        return (child.waitForExit(seconds: 120), child.output)
    }

    private static let bobsWords = "Dentist on Monday at ten"

    private static func lastLine(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    private static func status(_ home: ScratchFolder) throws -> [String: Any] {
        let (code, output) = try hark(home, ["account", "status", "--json"])
        XCTAssertEqual(code, 0, output)
        return (try JSONSerialization.jsonObject(with: Data(lastLine(output).utf8))) as? [String: Any] ?? [:]
    }

    /// `hark encryption install` runs the window's installer: the engine the
    /// tests installed is checked and said ready; one that cannot be made is said why.
    func testEncryptionInstallSaysTheEngineIsReadyOrWhyItCouldNotBeInstalled() throws {
        let home = try ScratchFolder()
        var (code, output) = try Self.hark(home, ["encryption", "install"])
        XCTAssertEqual(code, 0, output)
        XCTAssertEqual(Self.lastLine(output), "Encryption is installed: Hark reads and writes encrypted rooms from now on.")
        let child = try ChildProcess(harkExecutable, ["encryption", "install"],
                                     environment: ["XDG_DATA_HOME": home.url.path, "HARK_CRYPTO_ENGINE_DIR": "/etc/hostname/engine"])
        (code, output) = (child.waitForExit(seconds: 120), child.output)
        XCTAssertEqual(code, 1, output)
        XCTAssertTrue(output.contains("Preparing the engine…"), output)
        XCTAssertTrue(Self.lastLine(output).hasPrefix("hark: The encryption engine could not be installed ("), output)
    }

    func testAnEncryptedDirectChatFromTheCommandLine() throws {
        _ = try MainActor.assumeIsolated { try NioPeer.python() }
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus for the keyring (scripts/run-tests gives one)")
        }
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            guard let server = SharedHomeserver.start(users: ["alice", "bob"]) else { return XCTFail("no homeserver") }
            defer { server.stop() }
            let keyring = try TestKeyring()
            defer { keyring.stop() }
            let home = try ScratchFolder()
            func hark(_ arguments: [String], input: String? = nil) throws -> (status: Int32?, output: String) {
                try Self.hark(home, arguments, input: input)
            }
            func lastLine(_ output: String) -> String { Self.lastLine(output) }
            func status() throws -> [String: Any] { try Self.status(home) }
            let voice = try oggVoiceFile(in: home)
            let original = try XCTUnwrap(FileManager.default.contents(atPath: voice))
            var (code, output) = try hark(["account", "login", "--homeserver", server.url, "--user", "alice"],
                                          input: SharedHomeserver.password + "\n")
            XCTAssertEqual(code, 0, output)

            let bob = try NioPeer(homeserver: server.url, user: "bob", password: SharedHomeserver.password, store: home.path("bob"))
            defer { bob.stop() }
            try awaitOnLoop(seconds: 120) {
                try await bob.call("sync")
                try await bob.call("cross_sign")
            }
            (code, output) = try hark(["dm", "@bob:localhost"])
            XCTAssertEqual(code, 0, output)
            let room = lastLine(output)
            XCTAssertTrue(room.hasPrefix("!"), output)
            (code, output) = try hark(["dm", "@bob:localhost"])
            XCTAssertEqual(lastLine(output), room, "the same chat the second time")
            (code, output) = try hark(["rooms", "--json"])
            XCTAssertTrue(output.contains("\"encrypted\":true"), output)

            var account = try status()
            XCTAssertNotNil(account["device_id"] as? String)
            XCTAssertEqual(account["cross_signed"] as? Bool, false)
            (code, output) = try hark(["account", "recover", "--new"])
            XCTAssertEqual(code, 0, output)
            XCTAssertTrue(output.contains("Es"), output)
            account = try status()
            XCTAssertEqual(account["cross_signed"] as? Bool, true)

            try awaitOnLoop(seconds: 120) {
                try await bob.call("sync_until", ["invited": true, "room_id": room, "seconds": 60])
                try await bob.call("join", ["room_id": room])
                try await bob.call("trust", ["mode": "cross_signed_only"])
            }
            // Hark to Bob: encrypted by `hark send`, read by nio.
            (code, output) = try hark(["import", voice])
            XCTAssertEqual(code, 0, output)
            let id = String(lastLine(output).split(separator: " ").first ?? "")
            (code, output) = try hark(["sync", "--once"])
            XCTAssertEqual(code, 0, output)
            (code, output) = try hark(["send", id, room])
            XCTAssertEqual(code, 0, output)
            let eventID = lastLine(output)
            try awaitOnLoop(seconds: 120) {
                let found = try await bob.call("sync_until", ["room_id": room, "msgtype": "m.audio", "seconds": 60,
                                                              "sender": "@alice:localhost"])
                let event = try XCTUnwrap(found["event"] as? [String: Any])
                XCTAssertEqual(event["event_id"] as? String, eventID)
                let downloaded = try await bob.call("download", ["event_id": eventID])
                XCTAssertEqual((downloaded["base64"] as? String).flatMap { Data(base64Encoded: $0) }, original)
                // Bob to Hark, shared with Hark's cross-signed device.
                _ = try await bob.call("send_audio", ["room_id": room, "path": voice, "duration_ms": 4000, "waveform": [0, 1024, 50],
                                                      "caption": Self.bobsWords])
            }
            (code, output) = try hark(["sync", "--once"])
            XCTAssertEqual(code, 0, output)
            (code, output) = try hark(["list", "--json"])
            let listed = (try JSONSerialization.jsonObject(with: Data(lastLine(output).utf8))) as? [[String: Any]] ?? []
            let fromBob = listed.filter { $0["sender"] as? String == "@bob:localhost" }
            XCTAssertEqual(fromBob.count, 1, output)
            XCTAssertEqual(fromBob.first?["state"] as? String, "ready", "downloaded and decrypted: " + output)
            XCTAssertEqual(fromBob.first?["encrypted"] as? Bool, true, "it came encrypted")
            XCTAssertEqual(fromBob.first?["unverified_device"] as? Bool, false, "Bob cross-signed his device")
            XCTAssertTrue(fromBob.first.map { $0["undecrypted"] is NSNull } ?? false, "it was read")
            XCTAssertEqual(listed.first { $0["id"] as? String == id }?["encrypted"] as? Bool, true, "it went encrypted")
            // His words came inside the encrypted event: his transcript. Sent on with them, they go encrypted too.
            XCTAssertEqual(fromBob.first?["transcript"] as? String, Self.bobsWords)
            XCTAssertEqual(fromBob.first?["transcript_source"] as? String, "sender")
            (code, output) = try hark(["send", try XCTUnwrap(fromBob.first?["id"] as? String), room, "--with-transcript"])
            XCTAssertEqual(code, 0, output)
            let withWords = lastLine(output)
            try awaitOnLoop(seconds: 120) {
                let found = try await bob.call("sync_until", ["room_id": room, "body": Self.bobsWords, "seconds": 60,
                                                              "sender": "@alice:localhost"])
                let event = try XCTUnwrap(found["event"] as? [String: Any])
                XCTAssertEqual(event["event_id"] as? String, withWords)
                XCTAssertEqual(event["decrypted"] as? Bool, true)
                XCTAssertEqual((event["content"] as? [String: Any])?["filename"] as? String, "voice.ogg")
            }

            // Bob replaces his identity: `sync` says so, `rooms --json` names him until `accept-identity`.
            try awaitOnLoop(seconds: 120) { try await bob.call("cross_sign", ["replace": true]) }
            (code, output) = try hark(["sync", "--once"])
            XCTAssertEqual(code, 0, output)
            XCTAssertTrue(output.contains("@bob:localhost’s identity has changed."), output)
            XCTAssertTrue(output.contains("'hark accept-identity @bob:localhost'"), output)
            func changedInRoom() throws -> [String]? {
                let (_, output) = try hark(["rooms", "--json"])
                let rooms = (try JSONSerialization.jsonObject(with: Data(lastLine(output).utf8))) as? [[String: Any]] ?? []
                return rooms.first { $0["id"] as? String == room }?["identity_changed"] as? [String]
            }
            XCTAssertEqual(try changedInRoom(), ["@bob:localhost"])
            (code, output) = try hark(["accept-identity", "@bob:localhost"])
            XCTAssertEqual(code, 0, output)
            XCTAssertEqual(try changedInRoom(), [])
            (code, output) = try hark(["accept-identity", "@bob:localhost"])
            XCTAssertEqual(code, 1, "nothing left to accept: " + output)
        }
    }
}
