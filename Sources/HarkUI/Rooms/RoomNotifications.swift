import CGLib
import Foundation
import GLibSupport
import Localization
import MessageStore

/// What a desktop notification of a received voice message says: who, in
/// which room, how long, and the words its sender sent with it (their
/// start); activating it opens the room, its buttons play the message or
/// mark the room read.
struct RoomNotification: Equatable {
    var title: String
    var body: String
    var roomID: String
    /// The message Play plays.
    var messageID: String

    /// One notification per room: a newer message replaces the older one.
    var id: String { Self.id(of: roomID) }
    static func id(of roomID: String) -> String { "room-\(roomID)" }

    init(title: String, body: String, roomID: String, messageID: String) {
        self.title = title
        self.body = body
        self.roomID = roomID
        self.messageID = messageID
    }

    init(message: Message, senderName: String, roomName: String) {
        title = senderName
        let duration = DurationText.clock(message.duration)
        body = message.duration > 0
            ? tr("Voice message in {room} · {duration}", ["room": roomName, "duration": duration])
            : tr("Voice message in {room}", ["room": roomName])
        if message.transcriptSource == .sender, message.transcriptState == .done, let words = message.transcript {
            let gist = Self.gist(of: words)
            if !gist.isEmpty { body += "\n" + gist }
        }
        roomID = message.roomID ?? ""
        messageID = message.id
    }

    /// About how many characters of the sender's words the body shows.
    static let wordsLength = 100

    /// The sender's words on one line, cut at a word after about
    /// `wordsLength` characters ("…" where more follow), within it in a
    /// script written without spaces.
    static func gist(of words: String) -> String {
        let line = TranscriptDisplay.firstLine(of: words.split(whereSeparator: \.isNewline).joined(separator: " "),
                                               length: wordsLength)
        return line.count > wordsLength + 1 ? String(line.prefix(wordsLength)) + "…" : line
    }

    /// The body as the notification server reads it: Pango-like markup (the
    /// freedesktop spec's body-markup), so a room's name is escaped, never a link.
    var bodyMarkup: String { Markup.escape(body) }

    /// The application action a notification's click runs, with the room id as its target.
    static let openRoomAction = "open-room"
    /// Its Play button's action, with the message id.
    static let playAction = "play-message"
    /// Its Mark as Read button's action, with the room id.
    static let markReadAction = "mark-room-read"

    /// Sends it through GApplication (the desktop's notification service).
    @MainActor
    func send(through application: UnsafeMutablePointer<GApplication>) {
        let notification = g_notification_new(title)!
        g_notification_set_body(notification, bodyMarkup)
        g_notification_set_default_action_and_target_value(notification, "app.\(Self.openRoomAction)",
                                                           g_variant_new_string(roomID))
        // TRANSLATORS: a button on the notification of a voice message received.
        g_notification_add_button_with_target_value(notification, tr("Play"), "app.\(Self.playAction)",
                                                    g_variant_new_string(messageID))
        // TRANSLATORS: a button on the notification of a voice message received: its room is read.
        g_notification_add_button_with_target_value(notification, tr("Mark as Read"), "app.\(Self.markReadAction)",
                                                    g_variant_new_string(roomID))
        g_application_send_notification(application, id, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }
}
