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

    /// The words its sender sent with it follow on a line of their own, their
    /// start only; a transcript made here says nothing of the sender's.
    @Test func theSendersWordsFollowCutToTheirStart() {
        var said = message(4)
        said.transcript = "Running late <b>again</b>, sorry!\nSee you at the station in twenty minutes "
            + String(repeating: "and then we take the bus home together ", count: 5)
        said.transcriptState = .done
        said.transcriptSource = .sender
        let notification = RoomNotification(message: said, senderName: "bob", roomName: "Family")
        let lines = notification.body.components(separatedBy: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "Voice message in Family · 0:04")
        let words = lines.last ?? ""
        #expect(words.hasPrefix("Running late <b>again</b>, sorry! See you at the station"))
        #expect(words.hasSuffix("…"))
        #expect(words.count <= RoomNotification.wordsLength + 1)
        #expect(shownText(of: notification.bodyMarkup) == notification.body)

        var short = said
        short.transcript = "On my way"
        #expect(RoomNotification(message: short, senderName: "bob", roomName: "Family").body
                == "Voice message in Family · 0:04\nOn my way")

        var heardHere = said
        heardHere.transcriptSource = .local
        #expect(RoomNotification(message: heardHere, senderName: "bob", roomName: "Family").body
                == "Voice message in Family · 0:04")
    }
}
