import CGLib
import Foundation
import GLibSupport
import Localization
import MessageStore

/// What a desktop notification of a received voice message says: who, in
/// which room, how long; activating it opens the room.
struct RoomNotification: Equatable {
    var title: String
    var body: String
    var roomID: String

    /// One notification per room: a newer message replaces the older one.
    var id: String { "room-\(roomID)" }

    init(title: String, body: String, roomID: String) {
        self.title = title
        self.body = body
        self.roomID = roomID
    }

    init(message: Message, senderName: String, roomName: String) {
        title = senderName
        let duration = DurationText.clock(message.duration)
        body = message.duration > 0
            ? tr("Voice message in {room} · {duration}", ["room": roomName, "duration": duration])
            : tr("Voice message in {room}", ["room": roomName])
        roomID = message.roomID ?? ""
    }

    /// The body as the notification server reads it: Pango-like markup (the
    /// freedesktop spec's body-markup), so a room's name is escaped, never a link.
    var bodyMarkup: String { Markup.escape(body) }

    /// The application action a notification's click runs, with the room id as its target.
    static let openRoomAction = "open-room"

    /// Sends it through GApplication (the desktop's notification service).
    @MainActor
    func send(through application: UnsafeMutablePointer<GApplication>) {
        let notification = g_notification_new(title)!
        g_notification_set_body(notification, bodyMarkup)
        g_notification_set_default_action_and_target_value(notification, "app.\(Self.openRoomAction)",
                                                           g_variant_new_string(roomID))
        g_application_send_notification(application, id, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }
}
