import Foundation
import HarkTestSupport
@testable import MessageStore
import XCTest

/// Names and titles from strangers, on one line and cut to a length that
/// can be shown: no display is needed.
final class ReceivedTextTests: XCTestCase {
    func testAShortNameIsKeptAsWritten() {
        for name in ["Tom & Jerry", "Family <a href=\"https://x\">Verify</a>", "خانواده", "家族 👨‍👩‍👧‍👦", "Ünïcödé"] {
            XCTAssertEqual(ReceivedText.shown(name), name)
            XCTAssertEqual(ReceivedText.cleaned(name), name)
        }
    }

    func testLineBreaksAndControlsBecomeOneSpace() {
        XCTAssertEqual(ReceivedText.shown("Line one\nline two\r\n\n\tthree\u{0}\u{1B}[31mred\u{85}end\u{2028}x"),
                       "Line one line two three [31mred end x")
        XCTAssertEqual(ReceivedText.shown(String(repeating: "row\n", count: 40)),
                       Array(repeating: "row", count: 40).joined(separator: " "))
        XCTAssertEqual(ReceivedText.shown("\n  padded \n"), "padded")
    }

    func testDirectionalOverridesEmbeddingsAndIsolatesAreDropped() {
        XCTAssertEqual(ReceivedText.shown("Invoice \u{202E}gpj.exe"), "Invoice gpj.exe")
        let every = (0x202A...0x202E).map { String(UnicodeScalar($0)!) } + (0x2066...0x2069).map { String(UnicodeScalar($0)!) }
        XCTAssertEqual(ReceivedText.shown("a" + every.joined() + "b"), "ab")
        XCTAssertEqual(ReceivedText.shown("שלום \u{2067}x\u{2069}"), "שלום x", "right-to-left letters stay")
    }

    func testAHugeNameIsCutByCharactersWithAnEllipsis() {
        let huge = String(repeating: "Name ", count: 12_000)
        let shown = ReceivedText.shown(huge)
        XCTAssertEqual(shown.count, ReceivedText.shownLength)
        XCTAssertTrue(shown.hasSuffix("…"))
        XCTAssertTrue(huge.hasPrefix(String(shown.dropLast())))
        XCTAssertNotEqual(ReceivedText.cleaned(huge), shown, "the store keeps more than a row shows")
        XCTAssertEqual(ReceivedText.cleaned(huge).count, ReceivedText.storedLength)

        let flags = String(repeating: "👨‍👩‍👧‍👦", count: 500)
        let cutFlags = ReceivedText.shown(flags)
        XCTAssertEqual(cutFlags, String(repeating: "👨‍👩‍👧‍👦", count: ReceivedText.shownLength - 1) + "…",
                       "cut between characters, never inside one")
    }

    func testMarksStackedOnOneLetterAreLimited() {
        let zalgo = "Z" + String(repeating: "\u{0301}", count: 60_000) + "ed"
        let shown = ReceivedText.shown(zalgo)
        XCTAssertLessThanOrEqual(shown.unicodeScalars.count, ReceivedText.shownLength * ReceivedText.scalarsPerCharacter)
        XCTAssertEqual(Array(shown.unicodeScalars.prefix(2)), ["Z", "\u{0301}"])
        XCTAssertEqual(shown.count, 3, "the letter keeps some of its marks, and the letters after it come")
    }

    func testTheStoreKeepsReceivedNamesAndTitlesOnOneLineAndCut() throws {
        let scratch = try ScratchFolder()
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        let huge = String(repeating: "x", count: 60_000)
        try store.matrix.updateRoom(RoomUpdate(id: "!room", membership: .invite, name: "Two\nlines \u{202E}gpj.exe", inviter: "@eve\n:x"))
        try store.matrix.updateRoom(RoomUpdate(id: "!huge", membership: .join, name: huge))
        try store.matrix.setMember(roomID: "!huge", userID: "@eve:x", displayName: "Eve\u{202E}\n" + huge, membership: "join")
        let room = try XCTUnwrap(try store.matrix.room("!room"))
        XCTAssertEqual(room.name, "Two lines gpj.exe")
        XCTAssertEqual(room.inviter, "@eve :x")
        let hugeRoom = try XCTUnwrap(try store.matrix.room("!huge"))
        XCTAssertEqual(hugeRoom.name?.count, ReceivedText.storedLength, "the store keeps a tooltip's worth")
        XCTAssertEqual(hugeRoom.displayName.count, ReceivedText.shownLength)
        XCTAssertEqual(hugeRoom.fullName.count, ReceivedText.storedLength)
        XCTAssertEqual(store.matrix.memberName(roomID: "!huge", userID: "@eve:x")?.count, ReceivedText.storedLength)
        XCTAssertTrue(store.matrix.memberName(roomID: "!huge", userID: "@eve:x")?.hasPrefix("Eve xxx") == true)

        let message = try XCTUnwrap(try store.matrix.receive(IncomingAudio(
            eventID: "$e", roomID: "!huge", sender: "@eve:x", title: "Invoice \u{202E}gpj.exe\n" + huge,
            sentAt: Date(), duration: 3, fileExtension: "ogg", mediaURL: "mxc://x/e", levels: nil, unread: true)))
        XCTAssertTrue(message.title.hasPrefix("Invoice gpj.exe xxx"))
        XCTAssertEqual(message.title.count, ReceivedText.storedLength)
        XCTAssertEqual(store.matrix.senderName(of: message)?.count, ReceivedText.shownLength)
    }
}
