import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// "Send to…": the joined rooms a message can go to (an encrypted one only
/// when Hark's encryption is set up), one click sends it; Cancel or Escape sends nothing.
@MainActor
final class SendToDialog {
    let dialog: UnsafeMutablePointer<GtkWindow>
    /// The rooms offered, in the order shown.
    let rooms: [StoredRoom]
    private let send: @MainActor (StoredRoom) -> Void

    /// The rooms a message can be sent into.
    static func candidates(_ rooms: [StoredRoom], canEncrypt: Bool) -> [StoredRoom] {
        rooms.filter { $0.membership == .join && (canEncrypt || !$0.isEncrypted) }
    }

    init(over parent: UnsafeMutablePointer<GtkWindow>?, title: String, rooms: [StoredRoom], canEncrypt: Bool,
         send: @escaping @MainActor (StoredRoom) -> Void) {
        self.rooms = Self.candidates(rooms, canEncrypt: canEncrypt)
        self.send = send
        let body = self.rooms.isEmpty
            ? (canEncrypt || !rooms.contains(where: \.isEncrypted)
               ? tr("You have joined no room Hark can send to.")
               : tr("You have joined no room Hark can send to: your rooms are encrypted, and Hark’s encryption is not set up."))
            : nil
        let widget = adw_message_dialog_new(parent, tr("Send “{title}” to…", ["title": ReceivedText.shown(title)]), body)!
        dialog = hark_window(widget)
        let messageDialog = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: AdwMessageDialog.self)
        if !self.rooms.isEmpty {
            let list = gtk_list_box_new()!
            gtk_widget_add_css_class(list, "boxed-list")
            gtk_list_box_set_selection_mode(OpaquePointer(list), GTK_SELECTION_NONE)
            hark_accessible_set_label(UnsafeMutableRawPointer(list), tr("Rooms"))
            var rowRooms: [UnsafeMutableRawPointer: StoredRoom] = [:]
            for room in self.rooms {
                let row = adw_action_row_new()!
                // A room's name is the network's text, not markup ("Tom & Jerry").
                adw_preferences_row_set_use_markup(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self), 0)
                adw_preferences_row_set_title(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self),
                                              room.displayName)
                gtk_list_box_row_set_activatable(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkListBoxRow.self), 1)
                gtk_list_box_append(OpaquePointer(list), row)
                rowRooms[UnsafeMutableRawPointer(row)] = room
            }
            Signal.connectPointer(UnsafeMutableRawPointer(list), "row-activated") { [weak self] row in
                guard let self, let row, let room = rowRooms[row] else { return }
                self.choose(room.id)
            }
            let scroller = gtk_scrolled_window_new()!
            gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(scroller), 1)
            gtk_scrolled_window_set_max_content_height(OpaquePointer(scroller), 320)
            gtk_scrolled_window_set_child(OpaquePointer(scroller), list)
            adw_message_dialog_set_extra_child(messageDialog, scroller)
        }
        adw_message_dialog_add_response(messageDialog, "cancel", tr("_Cancel"))
        adw_message_dialog_set_close_response(messageDialog, "cancel")
    }

    func present() {
        gtk_window_present(dialog)
    }

    /// Sends to the room `id` (one of `rooms`) and closes.
    func choose(_ id: String) {
        guard let room = rooms.first(where: { $0.id == id }) else { return }
        gtk_window_close(dialog)
        send(room)
    }
}
