import CGLib
import CGtk
import Foundation
@testable import HarkUI
@testable import MessageStore
import Testing

/// A desktop notification's body goes to a server that reads markup (the
/// freedesktop spec's body-markup): a room's name shows as written.
struct RoomNotificationTests {
    func message(_ seconds: Double) -> Message {
        Message(id: "m", title: "Voice message", createdAt: Date(), duration: seconds, fileName: "m.ogg", codec: "opus",
                state: .ready, deletedAt: nil, playPosition: 0, origin: .received, roomID: "!room")
    }

    /// The text a markup reader shows of `markup`, or nil when it is not markup at all.
    func shownText(of markup: String) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard pango_parse_markup(markup, -1, 0, nil, &text, nil, nil) != 0, let text else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    @Test(arguments: ["Tom & Jerry",
                      "Family <a href=\"https://x\">Verify</a> <span size=\"xx-large\" foreground=\"red\">URGENT</span>",
                      "It's <b>bold"])
    func aRoomWithMarkupInItsNameIsNamedLiterally(_ room: String) {
        for seconds in [0.0, 4.0] {
            let notification = RoomNotification(message: message(seconds), senderName: "bob", roomName: room)
            #expect(notification.body.contains(room))
            #expect(shownText(of: notification.bodyMarkup) == notification.body)
        }
    }
}
