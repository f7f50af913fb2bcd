import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Signing in and out through the keyring (a real gnome-keyring on the test's
/// private bus) against a real Synapse: the token is kept there and nowhere
/// else; a revoked token stops the session with nothing lost.
final class AccountTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["dana", "erin", "finn"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    func testSignInKeepsTheTokenOnlyInTheKeyringAndSignOutForgetsIt() throws {
        let server = try XCTUnwrap(Self.server, "no homeserver (see the log above)")
        let keyring = try TestKeyring()
        let folder = try ScratchFolder()
        let url = server.url, base = folder.url
        let token = try MainActor.assumeIsolated { () throws -> String in
            let store = try MessageStore(folder: base)
            let secrets = SecretStore()
            let client = try awaitOnLoop {
                try await MatrixAccount.signIn(homeserverText: url, user: "dana", password: HomeserverTests.password,
                                               store: store, secrets: secrets)
            }
            let session = try XCTUnwrap(client.session)
            XCTAssertEqual(store.matrix.matrixAccount(), MatrixAccountRecord(userID: "@dana:localhost", homeserver: url,
                                                                      deviceID: session.deviceID))
            // A new start: the session comes back from the keyring.
            let restored = try XCTUnwrap(try awaitOnLoop { try await MatrixAccount.restore(store: store, secrets: SecretStore()) })
            XCTAssertEqual(restored.session, session)
            XCTAssertEqual(try awaitOnLoop { try await restored.whoAmI() }.userID, "@dana:localhost")
            return session.accessToken
        }
        XCTAssertEqual(keyring.lookup([("user", "@dana:localhost"), ("homeserver", url)]), token)
        // Nowhere in the store's files (database, its journal, anything beside).
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path)
        for name in files {
            let data = FileManager.default.contents(atPath: folder.path(name)) ?? Data()
            XCTAssertNil(data.range(of: Data(token.utf8)), "the token is in \(name)")
        }

        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: base)
            let client = try awaitOnLoop { try await MatrixAccount.restore(store: store, secrets: SecretStore()) }
            try awaitOnLoop { try await MatrixAccount.signOut(store: store, secrets: SecretStore(), client: client) }
            XCTAssertNil(store.matrix.matrixAccount())
            XCTAssertNil(try awaitOnLoop { try await MatrixAccount.restore(store: store, secrets: SecretStore()) })
            // The server ended that session: its token no longer works.
            let old = MatrixClient(homeserver: url, session: Session(homeserver: url, userID: "@dana:localhost",
                                                                     deviceID: "", accessToken: token))
            let error = try runFailing(MatrixError.self) { _ = try await old.whoAmI() }
            XCTAssertEqual(error, .signedOutByServer)
        }
        XCTAssertNil(keyring.lookup([("user", "@dana:localhost"), ("homeserver", url)]))
    }

    func testAWrongPasswordOrNoKeyringSignsNothingIn() throws {
        let server = try XCTUnwrap(Self.server, "no homeserver (see the log above)")
        let folder = try ScratchFolder()
        let url = server.url, base = folder.url
        try TestKeyring.checkPrivateBus()
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: base)
            // No Secret Service on the bus: refused before the server makes a session.
            let none = try runFailing(MatrixAccount.Failure.self) {
                _ = try await MatrixAccount.signIn(homeserverText: url, user: "erin", password: HomeserverTests.password,
                                                   store: store, secrets: SecretStore())
            }
            guard case .secrets(.unavailable)? = none else { return XCTFail("\(String(describing: none))") }
            XCTAssertNil(store.matrix.matrixAccount())
        }
        let keyring = try TestKeyring()
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: base)
            let wrong = try runFailing(MatrixAccount.Failure.self) {
                _ = try await MatrixAccount.signIn(homeserverText: url, user: "erin", password: "not it",
                                                   store: store, secrets: SecretStore())
            }
            XCTAssertEqual(wrong, .matrix(.wrongPassword))
            XCTAssertNil(store.matrix.matrixAccount())
        }
        XCTAssertNil(keyring.lookup([("user", "@erin:localhost"), ("homeserver", url)]))
    }

    func testARevokedTokenStopsTheSessionAndLosesNothing() throws {
        let server = try XCTUnwrap(Self.server, "no homeserver (see the log above)")
        let keyring = try TestKeyring()
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        let url = server.url, base = folder.url.appendingPathComponent("store")
        try MainActor.assumeIsolated {
            let store = try MessageStore(folder: base)
            let client = try awaitOnLoop {
                try await MatrixAccount.signIn(homeserverText: url, user: "finn", password: HomeserverTests.password,
                                               store: store, secrets: SecretStore())
            }
            let room = try awaitOnLoop { try await client.createRoom(name: "Mine") }
            let session = ConversationSession(client: client, store: store)
            try awaitOnLoop { try await session.syncOnce() }
            let message = try store.importFile(voice, title: "Kept")

            // Signed out elsewhere (another device, the server's admin): the token is revoked.
            let elsewhere = MatrixClient(homeserver: url, session: client.session)
            try awaitOnLoop { try await elsewhere.logout() }
            let error = try runFailing(MatrixError.self) { _ = try await session.syncOnce() }
            XCTAssertEqual(error, .signedOutByServer)
            try session.send(message.id, to: room)
            _ = try awaitOnLoop { await session.sendQueuedNow() }
            XCTAssertTrue(store.matrix.isSignedOutByServer)
            XCTAssertEqual(try store.matrix.sendState(of: message.id), .sending, "still queued for the next sign-in")
            XCTAssertNil(try awaitOnLoop { try await MatrixAccount.restore(store: store, secrets: SecretStore()) },
                         "no session is restored with a revoked token")

            // Signing in again: the same account, its rooms and its queue as they were; the send goes out.
            let again = try awaitOnLoop {
                try await MatrixAccount.signIn(homeserverText: url, user: "finn", password: HomeserverTests.password,
                                               store: store, secrets: SecretStore())
            }
            XCTAssertFalse(store.matrix.isSignedOutByServer)
            XCTAssertNotNil(try store.matrix.room(room))
            let resumed = ConversationSession(client: again, store: store)
            XCTAssertEqual(try awaitOnLoop { await resumed.sendQueuedNow() }, [])
            XCTAssertEqual(try store.matrix.sendState(of: message.id), .sent)
            XCTAssertEqual(try store.message(message.id).title, "Kept")
        }
        _ = keyring
    }
}
