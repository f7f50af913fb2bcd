import Conversations
import Encryption
import Foundation
import GLibSupport
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// Alice's Hark (a store, a session and an engine of its own) and Bob as an
/// independent matrix-nio client, in an encrypted room Bob made, on a real
/// Synapse. Bob has cross-signed his device (Hark shares room keys only with
/// devices their owner cross-signed) and sends to Hark's device without
/// verifying it (nio's default refuses unverified devices).
@MainActor
final class EncryptedRoomFixture {
    let device: TestDevice
    let server: SynapseServer
    private(set) var alice: ConversationSession
    let bob: NioPeer
    let room: String
    let voicePath: String
    let original: Data

    /// Set up before `awaitOnLoop` (the homeserver starts synchronously), made ready by `open`.
    init(users: [String] = ["alice", "bob"]) throws {
        MainLoop.bridgeSwiftConcurrency()
        _ = try NioPeer.python()
        device = try TestDevice()
        voicePath = try oggVoiceFile(in: device.scratch)
        original = try XCTUnwrap(FileManager.default.contents(atPath: voicePath))
        guard let server = SharedHomeserver.start(users: users) else { throw XCTSkip("no homeserver") }
        self.server = server
        let client = MatrixClient(homeserver: server.url)
        let session = try awaitOnLoop { try await client.login(user: "alice", password: SharedHomeserver.password) }
        let store = try MessageStore(folder: device.scratch.url.appendingPathComponent("store"))
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: session.userID, homeserver: session.homeserver,
                                                       deviceID: session.deviceID))
        alice = Self.session(client, store, device.engine)
        bob = try NioPeer(homeserver: server.url, user: "bob", password: SharedHomeserver.password,
                          store: device.scratch.path("bob"))
        room = try awaitOnLoop(seconds: 120) { [bob, alice] in
            try await bob.call("sync")
            try await bob.call("cross_sign")
            try await alice.syncOnce()
            let created = try await bob.call("create_room", ["invite": ["@alice:localhost"], "encrypted": true])
            let room = try XCTUnwrap(created["room_id"] as? String)
            try await Self.sync(alice) { try alice.store.matrix.room(room) != nil }
            try await alice.join(room)
            try await Self.sync(alice) { try alice.store.matrix.room(room)?.isEncrypted == true }
            try await bob.call("sync_until", ["joined": "@alice:localhost", "room_id": room, "seconds": 60])
            try await bob.call("trust", ["mode": "ignore_unverified"])
            return room
        }
    }

    private static func session(_ client: MatrixClient, _ store: MessageStore, _ engine: CryptoEngine) -> ConversationSession {
        let session = ConversationSession(client: client, store: store)
        session.encryption = RoomEncryption(engine: engine, client: client, store: store, userID: client.session!.userID,
                                            deviceID: client.session!.deviceID)
        return session
    }

    /// Hark started again: the same store and device, a new engine process over its saved state.
    func restartAlice() {
        alice.stop()
        alice = Self.session(alice.client, alice.store, device.reopened())
    }

    /// Runs `body` with a fixture of `users` on GLib's loop, and stops what it started.
    nonisolated static func run(users: [String] = ["alice", "bob"],
                                _ body: @escaping @MainActor (EncryptedRoomFixture) async throws -> Void) throws {
        try MainActor.assumeIsolated {
            let fixture = try EncryptedRoomFixture(users: users)
            defer { fixture.stop() }
            try awaitOnLoop(seconds: 300) { try await body(fixture) }
        }
    }

    func stop() {
        bob.stop()
        device.engine.stop()
        server.stop()
    }

    /// Bob sends the voice file; its event id.
    func bobSendsVoice() async throws -> String {
        let sent = try await bob.call("send_audio", ["room_id": room, "path": voicePath, "duration_ms": 4000,
                                                     "waveform": [0, 1024, 50]])
        return try XCTUnwrap(sent["event_id"] as? String)
    }

    /// The messages Hark shows in the room.
    func shownInRoom() throws -> [String] { try alice.store.shownIDs(in: .room(room)) }

    /// The messages Hark shows in the room, oldest first, as the store lists them.
    func messagesInRoom() throws -> [Message] { try shownInRoom().map { try alice.store.message($0) } }


    /// Syncs Hark until `done` holds (each sync may wait a second for news).
    static func sync(_ hark: ConversationSession, until done: () throws -> Bool) async throws {
        for _ in 0..<30 {
            try await hark.syncOnce(timeoutMilliseconds: 1000)
            if try done() { return }
        }
        XCTFail("not after 30 syncs")
    }
}
