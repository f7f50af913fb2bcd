import Conversations
import Foundation
import GLibSupport
import HarkTestSupport
import Matrix
import MatrixCrypto
import MessageStore
import XCTest

/// Cross-signing against Synapse (which checks every signature it is given):
/// a new identity signs the device that made it; another device of the
/// account is signed once the user gives the recovery key, not before, and
/// not with a wrong key. Each pins the identity it made or unlocked.
final class CrossSigningTests: XCTestCase {
    /// A signed-in device of Alice's with its keys published by its own engine, and its store.
    @MainActor
    static func device(_ server: SynapseServer) async throws -> (CrossSigning, TestDevice, MessageStore) {
        let device = try TestDevice()
        let client = MatrixClient(homeserver: server.url)
        let session = try await client.login(user: "alice", password: SharedHomeserver.password)
        let store = try MessageStore(folder: device.scratch.url.appendingPathComponent("store"))
        let encryption = RoomEncryption(engine: device.engine, client: client, store: store, userID: session.userID,
                                        deviceID: session.deviceID)
        try await encryption.prepare()
        return (CrossSigning(client: client, userID: session.userID, deviceID: session.deviceID, store: store), device, store)
    }

    func testANewIdentityAndASecondDeviceVerifiedByTheRecoveryKey() throws {
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            guard let server = SharedHomeserver.start(users: ["alice"]) else { return XCTFail("no homeserver") }
            defer { server.stop() }
            try awaitOnLoop(seconds: 240) {
                let (laptop, laptopDevice, laptopStore) = try await Self.device(server)
                defer { laptopDevice.engine.stop() }
                let before = try await laptop.status()
                XCTAssertFalse(before.hasIdentity)
                let recoveryKey = try await laptop.createIdentity()
                XCTAssertNoThrow(try RecoveryKey.decode(recoveryKey))
                let after = try await laptop.status()
                XCTAssertTrue(after.hasIdentity)
                XCTAssertTrue(after.deviceCrossSigned, "the device that made the identity is signed by it")
                let made = try XCTUnwrap(try laptopStore.matrix.pinnedIdentity(of: "@alice:localhost"), "its own identity pinned")
                do {
                    _ = try await laptop.createIdentity()
                    XCTFail("a second identity replaced the first")
                } catch {
                    XCTAssertEqual(error as? CrossSigning.Failure, .identityExists)
                }

                let (phone, phoneDevice, phoneStore) = try await Self.device(server)
                // The phone had pinned an older identity of Alice's, and noted the change.
                try phoneStore.matrix.pinIdentity(of: "@alice:localhost", masterKey: "older")
                try phoneStore.matrix.setIdentityChange(of: "@alice:localhost", to: made.masterKey)
                defer { phoneDevice.engine.stop() }
                let unsigned = try await phone.status()
                XCTAssertFalse(unsigned.deviceCrossSigned)
                var wrong = try RecoveryKey.encode(try secureRandomBytes(32))
                do {
                    try await phone.verifyThisDevice(with: wrong)
                    XCTFail("a wrong recovery key verified the device")
                } catch {
                    XCTAssertEqual(error as? CrossSigning.Failure, .crypto(.wrongRecoveryKey))
                }
                wrong = "not a key at all"
                do {
                    try await phone.verifyThisDevice(with: wrong)
                    XCTFail("text that is no key verified the device")
                } catch {
                    if case .crypto? = error as? CrossSigning.Failure {} else { XCTFail("\(error)") }
                }
                let stillUnsigned = try await phone.status()
                XCTAssertFalse(stillUnsigned.deviceCrossSigned)
                XCTAssertEqual(try phoneStore.matrix.pinnedIdentity(of: "@alice:localhost")?.masterKey, "older",
                               "a wrong key accepts nothing")
                // As people copy it: the groups on separate lines.
                try await phone.verifyThisDevice(with: recoveryKey.replacingOccurrences(of: " ", with: "\n"))
                let signed = try await phone.status()
                XCTAssertTrue(signed.deviceCrossSigned)
                XCTAssertEqual(try phoneStore.matrix.pinnedIdentity(of: "@alice:localhost"),
                               PinnedIdentity(userID: "@alice:localhost", masterKey: made.masterKey),
                               "the identity its recovery key unlocked is pinned, the change accepted")
            }
        }
    }
}
