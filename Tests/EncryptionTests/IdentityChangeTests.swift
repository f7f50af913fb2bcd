import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// Bob's identity pinned on first use: when he replaces it (a new master
/// key), Hark says so, marks his messages unverified and shares no room key
/// with his devices until Alice accepts the change; then it shares again.
final class IdentityChangeTests: XCTestCase {
    /// Bob's event as the server holds it, decrypted by Hark now: whether it counts as from a verified device.
    @MainActor
    static func readsAsVerified(_ fixture: EncryptedRoomFixture, _ eventID: String) async throws -> Bool {
        let raw = try await fixture.alice.client.eventJSON(roomID: fixture.room, eventID: eventID)
        let event = try JSONDecoder().decode(RoomEvent.self, from: raw)
        guard case .decrypted(_, let verified) = try await XCTUnwrap(fixture.alice.encryption).decrypt(event, roomID: fixture.room)
        else { throw XCTSkip("Bob's event could not be read") }
        return verified
    }

    /// Whether Bob's device decrypted Alice's event `eventID` (syncing until it arrived).
    @MainActor
    static func bobDecrypts(_ fixture: EncryptedRoomFixture, _ eventID: String) async throws -> Bool {
        try await decrypts(fixture.bob, fixture.room, eventID)
    }

    /// Whether `peer` decrypted the event `eventID` of `room` (syncing until it arrived).
    @MainActor
    static func decrypts(_ peer: NioPeer, _ room: String, _ eventID: String) async throws -> Bool {
        for _ in 0..<30 {
            try await peer.call("sync", ["timeout_ms": 1000])
            let seen = try await peer.call("events", ["room_id": room])
            if let event = (seen["events"] as? [[String: Any]])?.first(where: { $0["event_id"] as? String == eventID }) {
                return event["decrypted"] as? Bool == true
            }
        }
        XCTFail("the peer never got \(eventID)")
        return false
    }

    func testAChangedIdentityIsSaidAndGetsNoKeyUntilAccepted() throws {
        try EncryptedRoomFixture.run { fixture in
            let alice = fixture.alice
            let bob = "@bob:localhost"
            let first = try await EncryptedRoomSharingTests.aliceSends(fixture, title: "Before the reset")
            let readFirst = try await Self.bobDecrypts(fixture, first.eventID)
            XCTAssertTrue(readFirst)
            let published = try await alice.client.queryKeys(users: [bob]).masterKeys[bob]?.publicKey
            let pinned = try XCTUnwrap(try alice.store.matrix.pinnedIdentity(of: bob), "pinned on first use")
            XCTAssertEqual(pinned.masterKey, published)
            XCTAssertNil(pinned.changedTo)
            let bobsEvent = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(alice) { try alice.store.matrix.hasEvent(bobsEvent) }
            let verifiedBefore = try await Self.readsAsVerified(fixture, bobsEvent)
            XCTAssertTrue(verifiedBefore)

            // Bob resets his identity: Alice's sync hears his keys changed and says so.
            try await fixture.bob.call("cross_sign", ["replace": true])
            try await EncryptedRoomFixture.sync(alice) { try !alice.store.matrix.identityChanges().isEmpty }
            let change = try XCTUnwrap(try alice.store.matrix.identityChanges(inRoom: fixture.room).first)
            XCTAssertEqual(change.userID, bob)
            XCTAssertEqual(change.masterKey, pinned.masterKey, "the old key stays pinned")
            XCTAssertNotEqual(change.changedTo, pinned.masterKey)
            let republished = try await alice.client.queryKeys(users: [bob]).masterKeys[bob]?.publicKey
            XCTAssertEqual(change.changedTo, republished)
            let verifiedAfterReset = try await Self.readsAsVerified(fixture, bobsEvent)
            XCTAssertFalse(verifiedAfterReset, "his messages are marked until the change is accepted")

            let unaccepted = try await EncryptedRoomSharingTests.aliceSends(fixture, title: "After the reset")
            XCTAssertNotEqual(unaccepted.sessionID, first.sessionID, "a new session his device never had")
            let readUnaccepted = try await Self.bobDecrypts(fixture, unaccepted.eventID)
            XCTAssertFalse(readUnaccepted, "no key for a device under an identity not accepted")

            XCTAssertTrue(try alice.acceptIdentityChange(change))
            XCTAssertEqual(try alice.store.matrix.identityChanges(), [])
            XCTAssertEqual(try alice.store.matrix.pinnedIdentity(of: bob)?.masterKey, change.changedTo)
            let verifiedAccepted = try await Self.readsAsVerified(fixture, bobsEvent)
            XCTAssertTrue(verifiedAccepted)
            let accepted = try await EncryptedRoomSharingTests.aliceSends(fixture, title: "After accepting")
            let readAccepted = try await Self.bobDecrypts(fixture, accepted.eventID)
            XCTAssertTrue(readAccepted, "shared again once accepted")
        }
    }

    /// Alice's own identity replaced from her phone: Hark's device is no longer
    /// cross-signed, which the room says, and the phone under the new identity
    /// gets no room key until she accepts it.
    func testOwnIdentityResetElsewhereIsSaidAndTheOtherDeviceWaitsForAcceptance() throws {
        try EncryptedRoomFixture.run { fixture in
            let alice = fixture.alice
            let me = "@alice:localhost"
            let session = try XCTUnwrap(alice.client.session)
            let crossSigning = CrossSigning(client: alice.client, userID: session.userID, deviceID: session.deviceID)
            _ = try await crossSigning.createIdentity()
            _ = try await EncryptedRoomSharingTests.aliceSends(fixture, title: "From the laptop")
            let pinned = try XCTUnwrap(try alice.store.matrix.pinnedIdentity(of: me), "her own identity pinned too")
            let phone = try NioPeer(homeserver: fixture.server.url, user: "alice", password: SharedHomeserver.password,
                                    store: fixture.device.scratch.path("alice-phone"))
            defer { phone.stop() }
            try await phone.call("sync")
            try await phone.call("cross_sign", ["replace": true])

            try await EncryptedRoomFixture.sync(alice) { try !alice.store.matrix.identityChanges().isEmpty }
            let change = try XCTUnwrap(try alice.store.matrix.identityChanges(inRoom: fixture.room).first)
            XCTAssertEqual(change.userID, me)
            XCTAssertEqual(change.masterKey, pinned.masterKey)
            let status = try await crossSigning.status()
            XCTAssertFalse(status.deviceCrossSigned, "the new identity never signed this device")
            let said = IdentityChangeNotice.sentence(for: change, name: me, ownUserID: me)
            XCTAssertTrue(said.contains("this device is no longer verified"), said)

            let unaccepted = try await EncryptedRoomSharingTests.aliceSends(fixture, title: "Not for the new phone yet")
            let phoneReadUnaccepted = try await Self.decrypts(phone, fixture.room, unaccepted.eventID)
            XCTAssertFalse(phoneReadUnaccepted, "no key for her own device under an identity not accepted")
            XCTAssertTrue(try alice.acceptIdentityChange(change))
            let accepted = try await EncryptedRoomSharingTests.aliceSends(fixture, title: "For the phone")
            let phoneReadAccepted = try await Self.decrypts(phone, fixture.room, accepted.eventID)
            XCTAssertTrue(phoneReadAccepted, "shared once accepted")
        }
    }
}
