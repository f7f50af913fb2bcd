import Foundation
import GLibSupport
import HarkTestSupport
import XCTest

/// The peer the encrypted-room integration tests will talk to works: two
/// nio peers on a real Synapse exchange an encrypted text and an encrypted
/// voice message (m.audio, its file encrypted), each decrypted on the other side.
final class NioPeerTests: XCTestCase {
    func testTwoPeersExchangeAnEncryptedTextAndVoiceMessage() throws {
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            _ = try NioPeer.python()
            let scratch = try ScratchFolder()
            guard let server = SharedHomeserver.start(users: ["alice", "bob"]) else { return XCTFail("no homeserver") }
            defer { server.stop() }
            let audio = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })
            try audio.write(to: URL(fileURLWithPath: scratch.path("voice.ogg")))
            try awaitOnLoop(seconds: 240) {
                let alice = try NioPeer(homeserver: server.url, user: "alice", password: SharedHomeserver.password, store: scratch.path("alice"))
                let bob = try NioPeer(homeserver: server.url, user: "bob", password: SharedHomeserver.password, store: scratch.path("bob"))
                defer { alice.stop(); bob.stop() }
                try await bob.call("sync")
                let created = try await alice.call("create_room", ["invite": ["@bob:localhost"], "encrypted": true])
                let room = try XCTUnwrap(created["room_id"] as? String)
                try await bob.call("sync_until", ["invited": true, "room_id": room, "seconds": 60])
                try await bob.call("join", ["room_id": room])
                try await alice.call("sync_until", ["joined": "@bob:localhost", "room_id": room, "seconds": 60])
                try await alice.call("trust", ["mode": "ignore_unverified"])

                try await alice.call("send_text", ["room_id": room, "body": "hello bob"])
                let textFound = try await bob.call("sync_until", ["room_id": room, "body": "hello bob", "seconds": 60])
                let text = try XCTUnwrap(textFound["event"] as? [String: Any])
                XCTAssertEqual(text["decrypted"] as? Bool, true, "the message went through the server encrypted")
                XCTAssertEqual(text["sender"] as? String, "@alice:localhost")

                try await alice.call("send_audio", ["room_id": room, "path": scratch.path("voice.ogg"), "duration_ms": 1500,
                                                    "waveform": [0, 256, 1024]])
                let voiceFound = try await bob.call("sync_until", ["room_id": room, "msgtype": "m.audio", "seconds": 60])
                let voice = try XCTUnwrap(voiceFound["event"] as? [String: Any])
                XCTAssertEqual(voice["decrypted"] as? Bool, true)
                let content = try XCTUnwrap(voice["content"] as? [String: Any])
                XCTAssertNotNil(content["org.matrix.msc3245.voice"])
                XCTAssertNil(content["url"], "an encrypted room's file goes as `file`, never a plain url")
                let file = try XCTUnwrap(content["file"] as? [String: Any])
                XCTAssertEqual((file["key"] as? [String: Any])?["alg"] as? String, "A256CTR")
                let eventID = try XCTUnwrap(voice["event_id"] as? String)
                let downloaded = try await bob.call("download", ["event_id": eventID])
                XCTAssertEqual((downloaded["base64"] as? String).flatMap { Data(base64Encoded: $0) }, audio)
                try await bob.call("download", ["event_id": eventID, "path": scratch.path("received.ogg")])
                XCTAssertEqual(FileManager.default.contents(atPath: scratch.path("received.ogg")), audio)
            }
        }
    }
}
