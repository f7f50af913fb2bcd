import CAdwaita
import CGLib
import CGtk
import Conversations
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// A strip across the top of an encrypted room while one of its members'
/// identity changed and the user has not accepted it ("Bob’s identity has
/// changed…"), with Accept, which pins the new identity. The name comes
/// from the network: set as plain text, never markup.
@MainActor
final class IdentityBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    /// The change shown, while one is.
    private(set) var change: PinnedIdentity?
    var onAccept: @MainActor (PinnedIdentity) -> Void = { _ in }

    init() {
        widget = gtk_revealer_new()!
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "hark-banner")
        gtk_box_append(hark_box(box), gtk_image_new_from_icon_name("dialog-warning-symbolic"))
        label = gtk_label_new(nil)!
        gtk_label_set_wrap(hark_label(label), 1)
        gtk_label_set_wrap_mode(hark_label(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_box_append(hark_box(box), label)
        button = gtk_button_new_with_mnemonic(tr("_Accept"))!
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(box), button)
        gtk_revealer_set_child(OpaquePointer(widget), box)
        show(nil, name: "", ownUserID: "")
        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in
            if let change = self?.change { self?.onAccept(change) }
        }
    }

    /// Shows `change` of the member called `name` (nil hides the banner).
    func show(_ change: PinnedIdentity?, name: String, ownUserID: String) {
        self.change = change
        if let change {
            gtk_label_set_text(hark_label(label), IdentityChangeNotice.sentence(for: change, name: name, ownUserID: ownUserID))
            ButtonNames.name(button, change.userID == ownUserID ? tr("Accept your new identity")
                : tr("Accept {name}’s new identity", ["name": name]))
        }
        gtk_widget_set_visible(widget, change == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(OpaquePointer(widget), change == nil ? 0 : 1)
    }
}

extension WindowConversations {
    /// The shown room's first identity change not accepted yet, on the banner.
    func showIdentityChange() {
        let store = account.store
        guard let room = shownRoom, room.isEncrypted, account.isSignedIn,
              let change = (try? store.matrix.identityChanges(inRoom: room.id))?.first
        else { return identityBanner.show(nil, name: "", ownUserID: "") }
        let name = ReceivedText.shown(store.matrix.memberName(roomID: room.id, userID: change.userID) ?? change.userID)
        identityBanner.show(change, name: name, ownUserID: store.matrix.matrixAccount()?.userID ?? "")
    }

    func acceptIdentityChange(_ change: PinnedIdentity) {
        guard let session = account.session else { return openAccountDialog() }
        do throws(ConversationError) { try session.acceptIdentityChange(change) } catch {
            window.toast(error.description, seconds: MainWindow.problemSeconds)
        }
        showIdentityChange()
    }
}
