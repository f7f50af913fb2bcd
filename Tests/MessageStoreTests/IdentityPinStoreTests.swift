import Foundation
import HarkTestSupport
import MessageStore
import XCTest

/// The identities pinned on first use (migration 16): the first key kept,
/// a change kept apart until accepted, the room's members' changes, a
/// salvage keeping them, and another account starting afresh.
final class IdentityPinStoreTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }
    private let bob = "@bob:example.org"

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func signedIn(_ user: String = "@alice:example.org") throws -> MessageStore {
        let store = try MessageStore(folder: folder)
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: user, homeserver: "https://example.org", deviceID: "D"))
        return store
    }

    func testTheFirstKeyStaysPinned() throws {
        let store = try signedIn()
        XCTAssertNil(try store.matrix.pinnedIdentity(of: bob))
        try store.matrix.pinIdentity(of: bob, masterKey: "M1")
        try store.matrix.pinIdentity(of: bob, masterKey: "M2")
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob), PinnedIdentity(userID: bob, masterKey: "M1"))
        XCTAssertEqual(try store.matrix.identityChanges(), [])
    }

    func testAChangeWaitsUntilAcceptedAndKeepsWhenItWasFirstSeen() throws {
        let store = try signedIn()
        try store.matrix.pinIdentity(of: bob, masterKey: "M1")
        let seen = Date(timeIntervalSince1970: 1_800_000_000)
        try store.matrix.setIdentityChange(of: bob, to: "M2", at: seen)
        try store.matrix.setIdentityChange(of: bob, to: "M2", at: seen.addingTimeInterval(60))
        let change = PinnedIdentity(userID: bob, masterKey: "M1", changedTo: "M2", changedAt: seen)
        XCTAssertEqual(try store.matrix.identityChanges(), [change])

        XCTAssertFalse(try store.matrix.acceptIdentityChange(of: bob, masterKey: "M3"), "not the change shown")
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob), change)
        XCTAssertTrue(try store.matrix.acceptIdentityChange(of: bob, masterKey: "M2"))
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob), PinnedIdentity(userID: bob, masterKey: "M2"))
        XCTAssertEqual(try store.matrix.identityChanges(), [])
    }

    func testTheAccountsOwnIdentityIsPinnedInPlaceOfAnyOther() throws {
        let store = try signedIn()
        try store.matrix.repinIdentity(of: bob, masterKey: "M1")
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob), PinnedIdentity(userID: bob, masterKey: "M1"))
        try store.matrix.setIdentityChange(of: bob, to: "M2")
        try store.matrix.repinIdentity(of: bob, masterKey: "M3")
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob), PinnedIdentity(userID: bob, masterKey: "M3"))
    }

    func testAChangeBackToThePinnedKeyIsForgotten() throws {
        let store = try signedIn()
        try store.matrix.pinIdentity(of: bob, masterKey: "M1")
        try store.matrix.setIdentityChange(of: bob, to: "M2")
        try store.matrix.setIdentityChange(of: bob, to: nil)
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob), PinnedIdentity(userID: bob, masterKey: "M1"))
    }

    func testARoomSaysTheChangesOfItsMembersOnly() throws {
        let store = try signedIn()
        let carol = "@carol:example.org"
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .join))
        try store.matrix.setMember(roomID: "!room", userID: bob, displayName: "Bob", membership: "join")
        try store.matrix.setMember(roomID: "!room", userID: carol, displayName: "Carol", membership: "leave")
        for user in [bob, carol] {
            try store.matrix.pinIdentity(of: user, masterKey: "M1")
            try store.matrix.setIdentityChange(of: user, to: "M2")
        }
        XCTAssertEqual(try store.matrix.identityChanges(inRoom: "!room").map(\.userID), [bob], "Carol left")
        XCTAssertEqual(try store.matrix.identityChanges(inRoom: "!other"), [])
        XCTAssertEqual(try store.matrix.identityChanges().count, 2)
    }

    func testPinsOutliveASalvageButNotAnotherAccount() throws {
        do {
            let store = try signedIn()
            try store.matrix.pinIdentity(of: bob, masterKey: "M1")
            try store.matrix.setIdentityChange(of: bob, to: "M2")
        }
        try damageDatabaseHeader(in: folder)

        let store = try MessageStore(folder: folder)
        XCTAssertEqual(try store.matrix.pinnedIdentity(of: bob)?.changedTo, "M2", "kept by the salvage")
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: "@carol:example.org", homeserver: "https://example.org",
                                                              deviceID: "E"))
        XCTAssertNil(try store.matrix.pinnedIdentity(of: bob), "whom one account trusts is not the next one's")
    }
}
