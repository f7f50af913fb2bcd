import CGLib
import CGtk
import GtkSupport
import Localization
import MessageStore

/// Notifications of voice messages received while the window is not the
/// one the user is in (closed to the background too), and the application
/// actions they offer: open the room (a click), Play (in the window as it
/// is, hidden or not) and Mark as Read (a read receipt to the server).
extension WindowConversations {
    func notifyOf(_ received: [Message]) {
        guard !isWindowActive() else { return }
        let store = account.store
        for message in received where message.unread && message.origin == .received {
            guard let roomID = message.roomID, let room = try? store.matrix.room(roomID) else { continue }
            let sender = store.matrix.senderName(of: message) ?? tr("Someone")
            notify(RoomNotification(message: message, senderName: sender, roomName: room.displayName))
        }
    }

    /// Plays a received message where Hark is, its window shown or not; one
    /// still downloading plays once it is here.
    func play(messageID: String) {
        guard let message = try? account.store.message(messageID), message.state != .deleted else { return }
        guard message.state == .ready else {
            playsOnceDownloaded = message.state == .missing ? messageID : nil
            return
        }
        playsOnceDownloaded = nil
        // In its room's list: auto-next goes on with what came after it there.
        window.playback?.play(message, in: message.roomID.map { .room($0) })
    }

    /// The application's actions, each with its notification's target.
    func addNotificationActions(application: UnsafeMutablePointer<GtkApplication>) {
        let map = UnsafeMutableRawPointer(application)
        Actions.addTakingString(to: map, RoomNotification.openRoomAction) { [weak self] roomID in
            self?.open(roomID: roomID)
        }
        Actions.addTakingString(to: map, RoomNotification.playAction) { [weak self] in self?.play(messageID: $0) }
        Actions.addTakingString(to: map, RoomNotification.markReadAction) { [weak self] roomID in
            self?.account.session?.markRoomSeen(roomID)
            let app = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)
            g_application_withdraw_notification(app, RoomNotification.id(of: roomID))
        }
    }
}
