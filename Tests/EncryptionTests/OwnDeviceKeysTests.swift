import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MatrixCrypto
import XCTest

/// This device's one-time and fallback keys on the server, across starts of
/// Hark: kept at half of what the account holds, a new fallback key only
/// when the server has no unused one; so a message encrypted to a fallback
/// key a few starts ago still decrypts.
final class OwnDeviceKeysTests: XCTestCase {
    func testStartsUploadNoKeysTheServerHasAndKeepTheFallbackKey() throws {
        try EncryptedRoomFixture.run { fixture in
            let target = try await fixture.device.engine.identityKeys().maxOneTimeKeys / 2
            let user = fixture.alice.userID, device = try XCTUnwrap(fixture.alice.client.session?.deviceID)
            let first = try await Self.serverCount(fixture)
            XCTAssertEqual(first, target)
            fixture.restartAlice()
            try await fixture.alice.syncOnce()
            let second = try await Self.serverCount(fixture)
            XCTAssertEqual(second, target, "a start uploads no key the server has enough of")

            // Bob gets Alice's fallback key (her one-time keys gone) and starts an Olm session on it.
            while let left = try await Self.serverCount(fixture), left > 0 {
                let claimed = try await fixture.alice.client.claimKeys([user: [device]])
                XCTAssertNil(try XCTUnwrap(claimed.oneTimeKeys[user]?[device]).signed["fallback"])
            }
            let claimed = try await fixture.bob.call("claim_key", ["user_id": user, "device_id": device])
            XCTAssertEqual(claimed["fallback"] as? Bool, true, "\(claimed)")
            XCTAssertEqual(claimed["session"] as? Bool, true)

            // Two starts of Hark (and their syncs) before Bob's next message reaches her.
            for _ in 0..<2 {
                fixture.restartAlice()
                try await fixture.alice.syncOnce()
            }
            let last = try await Self.serverCount(fixture)
            XCTAssertEqual(last, target)
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(fixture.alice) { try fixture.shownInRoom().count == 1 }
            XCTAssertEqual(try fixture.alice.store.matrix.heldEvents().count, 0)
        }
    }

    /// How many one-time keys the server holds for Alice's device: its answer to an upload of nothing.
    @MainActor
    static func serverCount(_ fixture: EncryptedRoomFixture) async throws -> Int? {
        try await fixture.alice.client.uploadKeys(deviceKeys: nil).oneTimeKeyCounts["signed_curve25519"]
    }
}
