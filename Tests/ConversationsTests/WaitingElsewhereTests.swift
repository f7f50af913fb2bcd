import Conversations
import MessageStore
import XCTest

/// What a narrow window says waits outside the room on screen: pure.
final class WaitingElsewhereTests: XCTestCase {
    let voice = StoredRoom(id: "!voice", name: "Voice", membership: .join, unreadCount: 2)
    let family = StoredRoom(id: "!family", name: "Family", membership: .join, unreadCount: 1)
    let quiet = StoredRoom(id: "!quiet", name: "Quiet", membership: .join)
    let party = StoredRoom(id: "!party", name: "Tom & <b>Jerry</b>", membership: .invite, inviter: "@bob:localhost")

    func testNothingWaitingIsABareBackButtonAndNoBanner() {
        let waiting = WaitingElsewhere(rooms: [quiet, voice], shownRoomID: "!voice")
        XCTAssertEqual(waiting.count, 0, "the room on screen is in view: its unread count is not elsewhere")
        XCTAssertNil(waiting.badge)
        XCTAssertEqual(waiting.backButtonName, "Back to Rooms")
        XCTAssertNil(waiting.bannerText)
        XCTAssertNil(waiting.viewButtonName)
        XCTAssertNil(waiting.invitationToView)
    }

    func testOtherRoomsUnreadAndInvitationsAreCountedAndNamed() {
        let inRoom = WaitingElsewhere(rooms: [party, voice, family, quiet], shownRoomID: "!family")
        XCTAssertEqual(inRoom.unread, 2)
        XCTAssertEqual(inRoom.count, 3, "two unread in Voice and one invitation")
        XCTAssertEqual(inRoom.badge, "3")
        XCTAssertEqual(inRoom.backButtonName, "Back to Rooms, 2 unread, 1 invitation")

        let inRecordings = WaitingElsewhere(rooms: [voice, family], shownRoomID: nil)
        XCTAssertEqual(inRecordings.count, 3, "every room is elsewhere")
        XCTAssertEqual(inRecordings.backButtonName, "Back to Rooms, 3 unread")

        let invited = WaitingElsewhere(rooms: [party, party, quiet], shownRoomID: "!quiet")
        XCTAssertEqual(invited.backButtonName, "Back to Rooms, 2 invitations")
    }

    func testTheBannerCutsAHugeNameAndKeepsItOnOneLine() {
        let huge = StoredRoom(id: "!huge", name: String(repeating: "Long name ", count: 6_000), membership: .invite,
                              inviter: "@eve\n\n:localhost")
        let text = try? XCTUnwrap(WaitingElsewhere(rooms: [huge, voice], shownRoomID: "!voice").bannerText)
        XCTAssertLessThan(text?.count ?? .max, ReceivedText.shownLength * 2, text ?? "")
        XCTAssertTrue(text?.hasSuffix("…” from @eve :localhost") == true, text ?? "")
    }

    func testTheBannerNamesTheInvitationAsPlainText() {
        let one = WaitingElsewhere(rooms: [party, voice], shownRoomID: "!voice")
        XCTAssertEqual(one.bannerText, "Invitation to “Tom & <b>Jerry</b>” from @bob:localhost",
                       "names from the network are text, never markup")
        XCTAssertEqual(one.viewButtonName, "View invitation to Tom & <b>Jerry</b>")
        XCTAssertEqual(one.invitationToView, "!party")

        var unnamed = party
        unnamed.name = nil
        XCTAssertEqual(WaitingElsewhere(rooms: [unnamed], shownRoomID: nil).bannerText, "Invitation from @bob:localhost",
                       "a direct chat is the person inviting")
        var anonymous = party
        anonymous.inviter = nil
        XCTAssertEqual(WaitingElsewhere(rooms: [anonymous], shownRoomID: nil).bannerText, "Invitation to “Tom & <b>Jerry</b>”")

        var second = party
        second.id = "!second"
        let two = WaitingElsewhere(rooms: [party, second], shownRoomID: nil)
        XCTAssertEqual(two.bannerText, "2 invitations")
        XCTAssertEqual(two.viewButtonName, "View invitations")
        XCTAssertEqual(two.invitationToView, "!party", "the newest first")
    }

    func testADismissedInvitationLeavesTheBannerButStaysCounted() {
        var second = party
        second.id = "!second"
        second.name = "Second"
        let dismissed = WaitingElsewhere(rooms: [party, second], shownRoomID: nil, dismissed: ["!party"])
        XCTAssertEqual(dismissed.bannerText, "Invitation to “Second” from @bob:localhost")
        XCTAssertEqual(dismissed.invitationToView, "!second")
        XCTAssertEqual(dismissed.count, 2, "still waiting in the sidebar")
        let both = WaitingElsewhere(rooms: [party, second], shownRoomID: nil, dismissed: ["!party", "!second"])
        XCTAssertNil(both.bannerText)
        XCTAssertNil(both.viewButtonName)
        XCTAssertEqual(both.backButtonName, "Back to Rooms, 2 invitations")
    }

    func testOfflineTakesTheSubtitleWhileTheServerCannotBeReached() {
        XCTAssertEqual(WaitingElsewhere.subtitle(offline: true, note: nil), "Offline")
        XCTAssertEqual(WaitingElsewhere.subtitle(offline: true, note: "Encrypted"), "Offline")
        XCTAssertEqual(WaitingElsewhere.subtitle(offline: false, note: "Encrypted"), "Encrypted")
        XCTAssertNil(WaitingElsewhere.subtitle(offline: false, note: nil))
    }
}
