import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization

/// A strip across the top of the content while the account cannot be used
/// though nothing was lost: the server signed it out (Sign In…), or the
/// keyring that keeps its token is locked (Unlock…). Sending waits meanwhile.
@MainActor
final class AccountBanner {
    enum Reason {
        case signedOutByServer
        case keyringLocked
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private(set) var reason: Reason?
    /// The button: sign in again, or unlock the keyring.
    var onAction: @MainActor (Reason) -> Void = { _ in }

    init() {
        widget = gtk_revealer_new()!
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "hark-banner")
        label = gtk_label_new(nil)!
        gtk_label_set_wrap(hark_label(label), 1)
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_box_append(hark_box(box), label)
        button = gtk_button_new()!
        gtk_button_set_use_underline(hark_button(button), 1)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(box), button)
        gtk_revealer_set_child(OpaquePointer(widget), box)
        gtk_revealer_set_reveal_child(OpaquePointer(widget), 0)
        gtk_widget_set_visible(widget, 0)
        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in
            guard let self, let reason = self.reason else { return }
            self.onAction(reason)
        }
    }

    /// Shows the banner for `reason`, or hides it (nil).
    func show(_ reason: Reason?) {
        self.reason = reason
        if let reason {
            let (text, tooltip, action) = Self.words(reason)
            gtk_label_set_text(hark_label(label), text)
            gtk_widget_set_tooltip_text(label, tooltip)
            gtk_button_set_label(hark_button(button), action)
            ButtonNames.name(button)
        }
        gtk_widget_set_visible(widget, reason == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(OpaquePointer(widget), reason == nil ? 0 : 1)
    }

    private static func words(_ reason: Reason) -> (text: String, tooltip: String, action: String) {
        switch reason {
        case .signedOutByServer:
            return (tr("Signed out by the server"), tr("Sign in again to go on; nothing on this computer was lost."),
                    tr("_Sign In…"))
        case .keyringLocked:
            return (tr("The keyring is locked"),
                    tr("Hark keeps your sign-in in the keyring: unlock it to send and receive; nothing was lost."),
                    tr("_Unlock…"))
        }
    }
}
