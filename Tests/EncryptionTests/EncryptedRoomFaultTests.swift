import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MatrixCrypto
import MessageStore
import XCTest

/// What can go wrong around an encrypted room: a restart, a helper killed in
/// the middle of a sync, a ciphertext replayed, a file changed on the server.
final class EncryptedRoomFaultTests: XCTestCase {
    func testARestartedHarkKeepsDecryptingAndItsFilesHoldNoSecret() throws {
        try EncryptedRoomFixture.run { fixture in
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 1 }
            fixture.restartAlice()
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 2 }
            // Neither the store nor the engine's state holds the pickle key or the token.
            let token = try XCTUnwrap(fixture.alice.client.session?.accessToken)
            let secrets = [fixture.device.pickleKey.base64EncodedString(), MatrixBase64.encode(fixture.device.pickleKey), token]
            let files = FileManager.default.enumerator(atPath: fixture.device.scratch.path("store"))?
                .compactMap { $0 as? String }.map { fixture.device.scratch.path("store") + "/" + $0 } ?? []
            for path in files + [fixture.device.stateFile] {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                for secret in secrets { XCTAssertFalse(text.contains(secret), "\(path) holds a secret") }
            }
            let mode = try FileManager.default.attributesOfItem(atPath: fixture.device.stateFile)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600)
        }
    }

    /// The helper dies while a sync's room key is being read: the sync fails
    /// without moving its token, and the next one reads the key and the message.
    func testTheHelperKilledMidSyncLosesNoKey() throws {
        try EncryptedRoomFixture.run { fixture in
            _ = try await fixture.bobSendsVoice()
            let before = fixture.alice.store.matrix.syncToken
            let helper = try XCTUnwrap(fixture.device.helperProcess())
            kill(helper, SIGSTOP)
            let sync = Task { @MainActor in try await fixture.alice.syncOnce(timeoutMilliseconds: 1000) }
            // Long enough for the sync's answer to reach the stopped helper.
            try await Task.sleep(nanoseconds: 2_000_000_000)
            try fixture.device.killHelper()
            do {
                _ = try await sync.value
                XCTFail("the sync went on without its room key")
            } catch {}
            XCTAssertEqual(fixture.alice.store.matrix.syncToken, before, "the token did not move past the key")
            XCTAssertEqual(try fixture.shownInRoom(), [])
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 1 }
        }
    }

    /// The server shows an event's ciphertext again under another event id
    /// (here another member sends it): Hark reads it once.
    func testAReplayedCiphertextIsRefused() throws {
        try EncryptedRoomFixture.run(users: ["alice", "bob", "mallory"]) { fixture in
            let original = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 1 }
            let raw = try JSONValue(parsing: try await fixture.alice.client.eventJSON(roomID: fixture.room, eventID: original))
            let mallory = MatrixClient(homeserver: fixture.server.url)
            try await mallory.login(user: "mallory", password: SharedHomeserver.password)
            try await fixture.bob.call("invite", ["room_id": fixture.room, "user_id": "@mallory:localhost"])
            try await mallory.join(roomID: fixture.room)
            let replay = try await mallory.sendEncrypted(roomID: fixture.room, transactionID: MatrixClient.newTransactionID(),
                                                         content: try XCTUnwrap(raw["content"]))
            XCTAssertNotEqual(replay, original)
            var refusals: [String] = []
            for _ in 0..<3 { refusals += try await fixture.alice.syncOnce(timeoutMilliseconds: 500).refusals }
            XCTAssertEqual(refusals.count, 1, "the sync says why, once (hark sync prints it)")
            let shown = try fixture.messagesInRoom()
            XCTAssertEqual(shown.count, 2)
            XCTAssertEqual(shown.filter { $0.mediaURL != nil }.map(\.eventID), [original], "the replay is not a second message")
            let refused = try XCTUnwrap(shown.first { $0.eventID == replay })
            XCTAssertEqual(refused.undecrypted?.standing, .refused, "its row says why it is not shown")
            XCTAssertEqual(refused.undecrypted?.refusal, refusals.first)
        }
    }

    /// The file on the server is changed after it was sent: its hash no
    /// longer matches, and Hark refuses it with a sentence instead of playing it.
    func testATamperedAttachmentIsRefused() throws {
        try EncryptedRoomFixture.run { fixture in
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 1 }
            let message = try fixture.alice.store.message(try XCTUnwrap(try fixture.shownInRoom().first))
            let media = try XCTUnwrap(message.mediaURL.flatMap(Endpoints.parseContentURI)).mediaID
            let stored = fixture.server.folder.path("media/local_content/\(media.prefix(2))/\(media.dropFirst(2).prefix(2))/\(media.dropFirst(4))")
            var bytes = try XCTUnwrap(FileManager.default.contents(atPath: stored), "Synapse keeps the file at \(stored)")
            bytes[bytes.count / 2] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: stored))
            let fetched = await fixture.alice.fetchWaitingDownloads()
            XCTAssertEqual(fetched, 0)
            let refused = try fixture.alice.store.message(message.id)
            XCTAssertTrue(refused.downloadFailed)
            XCTAssertEqual(refused.downloadFailure, CryptoError.attachmentHashMismatch.description)
        }
    }
}
