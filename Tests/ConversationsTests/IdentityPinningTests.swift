import Conversations
import MessageStore
import XCTest

/// Trust on first use of cross-signing identities: pure.
final class IdentityPinningTests: XCTestCase {
    let bob = "@bob:example.org"

    func testTheFirstKeySeenIsPinnedAndTrusted() {
        let verdict = IdentityPinning.verdict(pinned: nil, published: "M1")
        XCTAssertEqual(verdict, .pinFirst(masterKey: "M1"))
        XCTAssertTrue(verdict.isTrusted)
    }

    func testNoPublishedIdentityIsNotTrustedAndPinsNothing() {
        XCTAssertEqual(IdentityPinning.verdict(pinned: nil, published: nil), .noIdentity)
        let pinned = PinnedIdentity(userID: bob, masterKey: "M1")
        XCTAssertEqual(IdentityPinning.verdict(pinned: pinned, published: nil), .noIdentity)
        XCTAssertFalse(IdentityPinning.Verdict.noIdentity.isTrusted)
    }

    func testThePinnedKeyAgainIsTrusted() {
        let verdict = IdentityPinning.verdict(pinned: PinnedIdentity(userID: bob, masterKey: "M1"), published: "M1")
        XCTAssertEqual(verdict, .pinned(revertedChange: false))
        XCTAssertTrue(verdict.isTrusted)
    }

    func testAnotherKeyIsAChangeNotTrustedAndNewOnlyTheFirstTime() {
        let first = IdentityPinning.verdict(pinned: PinnedIdentity(userID: bob, masterKey: "M1"), published: "M2")
        XCTAssertEqual(first, .changed(to: "M2", isNew: true))
        XCTAssertFalse(first.isTrusted)
        let noted = PinnedIdentity(userID: bob, masterKey: "M1", changedTo: "M2")
        XCTAssertEqual(IdentityPinning.verdict(pinned: noted, published: "M2"), .changed(to: "M2", isNew: false),
                       "the same change is said once")
        XCTAssertEqual(IdentityPinning.verdict(pinned: noted, published: "M3"), .changed(to: "M3", isNew: true),
                       "a change to yet another key is said again")
    }

    func testAChangeBackToThePinnedKeyEndsTheChange() {
        let noted = PinnedIdentity(userID: bob, masterKey: "M1", changedTo: "M2")
        let verdict = IdentityPinning.verdict(pinned: noted, published: "M1")
        XCTAssertEqual(verdict, .pinned(revertedChange: true))
        XCTAssertTrue(verdict.isTrusted)
    }

    func testTheSentenceNamesThePersonOrSaysThisDeviceLostItsVerification() {
        let change = PinnedIdentity(userID: bob, masterKey: "M1", changedTo: "M2")
        XCTAssertEqual(IdentityChangeNotice.sentence(for: change, name: "Bob", ownUserID: "@alice:example.org"),
                       "Bob’s identity has changed. Messages from their devices are marked until you accept it.")
        let own = IdentityChangeNotice.sentence(for: change, name: "Bob", ownUserID: bob)
        XCTAssertTrue(own.contains("this device is no longer verified"), own)
    }
}
