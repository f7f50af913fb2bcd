import CAdwaita
import CGtk
import GLibSupport
import Localization

/// What the window says of encryption: an encrypted room's title, and, while
/// Hark's encryption is not set up, its empty page with Set Up Encryption.
extension WindowConversations {
    /// What an encrypted room's title and row say.
    static func encryptedNote(canEncrypt: Bool) -> String {
        canEncrypt ? tr("End-to-end encrypted") : tr("Encrypted: Hark’s encryption is not set up")
    }

    /// How the user sets encryption up: in the window, no restart.
    static var encryptionSetUp: String {
        tr("Set Up Encryption installs Hark’s encryption engine (about 1 MB, once) and opens encrypted rooms, without a restart.")
    }

    func updateEmptyState() {
        guard let page = window.emptyStatePage else { return }
        let room = shownRoom
        let needsSetup = room?.isEncrypted == true && !account.canEncrypt && account.isSignedIn
        if needsSetup, adw_status_page_get_child(OpaquePointer(page)) != encryptionSetup.widget {
            adw_status_page_set_child(OpaquePointer(page), encryptionSetup.widget)
        }
        gtk_widget_set_visible(encryptionSetup.widget, needsSetup ? 1 : 0)
        if let room {
            adw_status_page_set_title(OpaquePointer(page), tr("No voice messages yet"))
            adw_status_page_set_description(OpaquePointer(page), room.isEncrypted && !account.canEncrypt
                ? Markup.escape(tr("This room is end-to-end encrypted, and Hark’s encryption is not set up.") + " " + Self.encryptionSetUp)
                : tr("Record a message with the button below: it is sent to {room}.", ["room": Markup.escape(room.displayName)]))
        } else {
            window.resetEmptyState()
        }
    }
}
