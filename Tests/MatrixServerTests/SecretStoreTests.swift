import HarkTestSupport
@testable import Matrix
import XCTest

/// The token in a real Secret Service (gnome-keyring on the test's private
/// session bus), and the clear refusal when there is none.
final class SecretStoreTests: XCTestCase {
    static let alice = Account(userID: "@alice:localhost", homeserver: "http://127.0.0.1:8008")
    static let bob = Account(userID: "@bob:localhost", homeserver: "http://127.0.0.1:8008")
    static let aliceAttributes = [("user", "@alice:localhost"), ("homeserver", "http://127.0.0.1:8008")]

    func testTokenIsStoredInTheKeyringReadBackAndCleared() throws {
        let keyring = try TestKeyring()
        try MainActor.assumeIsolated {
            let store = SecretStore()
            try awaitOnLoop { try await store.store(token: "syt_first", for: Self.alice) }
            try awaitOnLoop { try await store.store(token: "syt_bob", for: Self.bob) }
            XCTAssertEqual(try awaitOnLoop { try await store.token(for: Self.alice) }, "syt_first")
            // It is in the Secret Service itself, where libsecret's own tool finds it.
            XCTAssertEqual(keyring.lookup(Self.aliceAttributes), "syt_first")
            // A new sign-in replaces the token; it does not add a second one.
            try awaitOnLoop { try await store.store(token: "syt_second", for: Self.alice) }
            XCTAssertEqual(try awaitOnLoop { try await SecretStore().token(for: Self.alice) }, "syt_second")
            try awaitOnLoop { try await store.clear(for: Self.alice) }
            XCTAssertNil(try awaitOnLoop { try await store.token(for: Self.alice) })
            XCTAssertNil(keyring.lookup(Self.aliceAttributes))
            XCTAssertEqual(try awaitOnLoop { try await store.token(for: Self.bob) }, "syt_bob",
                           "only that account's token goes")
            try awaitOnLoop { try await store.clear(for: Self.alice) }  // clearing nothing is no error
            try awaitOnLoop { try await store.clear(for: Self.bob) }
        }
    }

    func testNoSecretServiceIsAClearError() throws {
        try TestKeyring.checkPrivateBus()
        XCTAssertFalse(TestKeyring.secretsOwned)
        try MainActor.assumeIsolated {
            let store = SecretStore()
            let error = try runFailing(SecretStoreError.self) { try await store.store(token: "syt_x", for: Self.alice) }
            guard case .unavailable? = error else { return XCTFail("\(String(describing: error))") }
            XCTAssertEqual(error?.description,
                           "No Secret Service is running (such as GNOME Keyring or KWallet): Hark keeps your "
                           + "sign-in only there, so it cannot sign in without one.")
            let lookup = try runFailing(SecretStoreError.self) { _ = try await store.token(for: Self.alice) }
            guard case .unavailable? = lookup else { return XCTFail("\(String(describing: lookup))") }
        }
    }

    /// A locked keyring (locked by the user, or restarted with nobody to type
    /// its password) is said to be locked: never read as "no token", which
    /// would send the user to sign in again and make a new device.
    func testALockedKeyringIsSaidToBeLockedNotEmpty() throws {
        let keyring = try TestKeyring()
        try MainActor.assumeIsolated {
            let store = SecretStore()
            try awaitOnLoop { try await store.store(token: "syt_kept", for: Self.alice) }
            try keyring.lock()
            let locked = try runFailing(SecretStoreError.self) { _ = try await store.token(for: Self.alice) }
            XCTAssertEqual(locked, .locked)
            XCTAssertNil(try awaitOnLoop { try await store.token(for: Self.bob) }, "an account with no token has none")

            keyring.stop()
            try keyring.start(unlocked: false)
            let restarted = try runFailing(SecretStoreError.self) { _ = try await store.token(for: Self.alice) }
            XCTAssertEqual(restarted, .locked)

            keyring.stop()
            try keyring.start()
            XCTAssertEqual(try awaitOnLoop { try await store.token(for: Self.alice) }, "syt_kept", "unlocked, it is there")
            try awaitOnLoop { try await store.clear(for: Self.alice) }
        }
    }

    func testAKeyringThatWentAwayAndCameBack() throws {
        let keyring = try TestKeyring()
        try MainActor.assumeIsolated {
            let store = SecretStore()
            try awaitOnLoop { try await store.store(token: "syt_x", for: Self.alice) }
            keyring.stop()
            let error = try runFailing(SecretStoreError.self) { _ = try await store.token(for: Self.alice) }
            guard case .unavailable? = error else { return XCTFail("\(String(describing: error))") }
            // The same keyring files, a new daemon: the same store object reaches it again.
            try keyring.start()
            XCTAssertEqual(try awaitOnLoop { try await store.token(for: Self.alice) }, "syt_x")
            try awaitOnLoop { try await store.clear(for: Self.alice) }
        }
    }
}
