import Conversations
import Encryption
import Foundation
import GLibSupport
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Hark in an encrypted room with an independent client (matrix-nio with
/// vodozemac) as the other person, on a real Synapse: a voice message each
/// way, the audio byte for byte, never a plaintext event or file on the server.
final class EncryptedRoomTests: XCTestCase {
    /// Alice's Hark: a store, a signed-in session and an engine of its own.
    @MainActor
    static func hark(_ server: SynapseServer, device: TestDevice) async throws -> ConversationSession {
        let client = MatrixClient(homeserver: server.url)
        let session = try await client.login(user: "alice", password: SharedHomeserver.password)
        let store = try MessageStore(folder: device.scratch.url.appendingPathComponent("store"))
        try store.setMatrixAccount(MatrixAccountRecord(userID: session.userID, homeserver: session.homeserver,
                                                       deviceID: session.deviceID))
        let hark = ConversationSession(client: client, store: store)
        hark.encryption = RoomEncryption(engine: device.engine, client: client, userID: session.userID,
                                         deviceID: session.deviceID)
        return hark
    }

    /// Real Ogg Opus: a second of silence, a second loud, two seconds quiet.
    static func voiceFile(in folder: ScratchFolder) throws -> String {
        let wav = folder.path("voice.wav"), ogg = folder.path("voice.ogg")
        try WAVFile.write([.init(seconds: 1, amplitude: 0), .init(seconds: 1, amplitude: 0.9),
                           .init(seconds: 2, amplitude: 0.05)], rate: 48_000, to: URL(fileURLWithPath: wav))
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! audioresample "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(ogg)")
        return ogg
    }

    /// Syncs Hark until `done` holds (each sync may wait a second for news).
    @MainActor
    static func sync(_ hark: ConversationSession, until done: () throws -> Bool) async throws {
        for _ in 0..<30 {
            try await hark.syncOnce(timeoutMilliseconds: 1000)
            if try done() { return }
        }
        XCTFail("not after 30 syncs")
    }

    func testVoiceMessagesBothWaysInAnEncryptedRoom() throws {
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            _ = try NioPeer.python()
            let device = try TestDevice()
            let voicePath = try Self.voiceFile(in: device.scratch)
            let original = try XCTUnwrap(FileManager.default.contents(atPath: voicePath))
            guard let server = SharedHomeserver.start(users: ["alice", "bob"]) else { return XCTFail("no homeserver") }
            defer { server.stop() }
            try awaitOnLoop(seconds: 300) {
                let alice = try await Self.hark(server, device: device)
                let bob = try NioPeer(homeserver: server.url, user: "bob", password: SharedHomeserver.password,
                                      store: device.scratch.path("bob"))
                defer { bob.stop(); device.engine.stop() }
                try await bob.call("sync")
                try await alice.syncOnce()
                let created = try await bob.call("create_room", ["invite": ["@alice:localhost"], "encrypted": true])
                let room = try XCTUnwrap(created["room_id"] as? String)
                try await Self.sync(alice) { try alice.store.room(room) != nil }
                try await alice.join(room)
                try await Self.sync(alice) { try alice.store.room(room)?.isEncrypted == true }
                try await bob.call("sync_until", ["joined": "@alice:localhost", "room_id": room, "seconds": 60])
                try await bob.call("trust", ["mode": "ignore_unverified"])

                // Bob to Alice: decrypted, downloaded, decrypted again, the same bytes.
                try await bob.call("send_audio", ["room_id": room, "path": voicePath, "duration_ms": 4000,
                                                  "waveform": [0, 1024, 50]])
                try await Self.sync(alice) { !(try alice.store.shownIDs(in: .room(room))).isEmpty }
                let receivedID = try XCTUnwrap(try alice.store.shownIDs(in: .room(room)).first)
                let fetched = await alice.fetchWaitingDownloads()
                XCTAssertEqual(fetched, 1)
                let received = try alice.store.message(receivedID)
                XCTAssertEqual(received.sender, "@bob:localhost")
                XCTAssertEqual(FileManager.default.contents(atPath: alice.store.audioPath(of: received)), original,
                               "the audio Bob sent, decrypted")

                // Alice to Bob: encrypted for Bob's device, read by nio.
                let message = try alice.store.importFile(voicePath, title: "Dentist on Monday")
                let entry = try alice.send(message.id, to: room)
                let unsent = await alice.sendQueuedNow()
                XCTAssertEqual(unsent, [])
                let sent = try XCTUnwrap(try alice.store.outboxEntry(entry.transactionID))
                XCTAssertEqual(sent.state, .sent, sent.lastError ?? "")
                let found = try await bob.call("sync_until", ["room_id": room, "msgtype": "m.audio", "seconds": 60,
                                                              "sender": "@alice:localhost"])
                let event = try XCTUnwrap(found["event"] as? [String: Any])
                XCTAssertEqual(event["decrypted"] as? Bool, true, "it went through the server encrypted")
                XCTAssertEqual(event["event_id"] as? String, sent.eventID)
                let content = try XCTUnwrap(event["content"] as? [String: Any])
                XCTAssertEqual(content["body"] as? String, "Dentist on Monday")
                XCTAssertNotNil(content["org.matrix.msc3245.voice"])
                XCTAssertNil(content["url"], "the audio goes as an encrypted file")
                let downloaded = try await bob.call("download", ["event_id": try XCTUnwrap(sent.eventID)])
                XCTAssertEqual((downloaded["base64"] as? String).flatMap { Data(base64Encoded: $0) }, original)

                // What the server holds is ciphertext: the event and the file.
                let raw = try await alice.client.eventJSON(roomID: room, eventID: try XCTUnwrap(sent.eventID))
                let text = String(decoding: raw, as: UTF8.self)
                XCTAssertTrue(text.contains("m.room.encrypted"))
                XCTAssertFalse(text.contains("Dentist"), "no plaintext on the server")

                // Alice's own echo is her sent message, not a second one.
                try await alice.syncOnce()
                XCTAssertEqual(try alice.store.shownIDs(in: .room(room)).sorted(), [receivedID, message.id].sorted())
            }
        }
    }
}
