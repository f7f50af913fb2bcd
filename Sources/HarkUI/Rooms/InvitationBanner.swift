import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization

/// A strip across the top of a narrow window's room while an invitation
/// waits in the hidden sidebar: "Invitation to “Room” from Someone" and
/// View, which shows it there (where Accept and Decline are), and a close
/// button that hides it until another invitation comes. Its text comes
/// from the network: set as plain text, never markup.
@MainActor
final class InvitationBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    /// Hides the banner for the invitations it shows (the sidebar keeps them).
    let closeButton: UnsafeMutablePointer<GtkWidget>
    var onView: @MainActor () -> Void = {}
    var onDismiss: @MainActor () -> Void = {}

    init() {
        widget = gtk_revealer_new()!
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "hark-banner")
        gtk_box_append(hark_box(box), gtk_image_new_from_icon_name("mail-unread-symbolic"))
        label = gtk_label_new(nil)!
        gtk_label_set_wrap(hark_label(label), 1)
        gtk_label_set_wrap_mode(hark_label(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_box_append(hark_box(box), label)
        // TRANSLATORS: a button beside "Invitation to “Room” from Someone": shows the invitation.
        button = gtk_button_new_with_mnemonic(tr("_View"))!
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(box), button)
        closeButton = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(closeButton, "flat")
        gtk_widget_add_css_class(closeButton, "circular")
        gtk_widget_set_valign(closeButton, GTK_ALIGN_CENTER)
        // TRANSLATORS: the close button of the strip that announces an invitation.
        let dismiss = tr("Dismiss")
        gtk_widget_set_tooltip_text(closeButton, dismiss)
        ButtonNames.name(closeButton, dismiss)
        gtk_box_append(hark_box(box), closeButton)
        gtk_revealer_set_child(OpaquePointer(widget), box)
        show(nil, buttonName: nil)
        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.onView() }
        Signal.connect(UnsafeMutableRawPointer(closeButton), "clicked") { [weak self] in self?.onDismiss() }
    }

    /// Shows `text` (nil hides the banner), its button named `buttonName`.
    func show(_ text: String?, buttonName: String?) {
        if let text {
            gtk_label_set_text(hark_label(label), text)
            ButtonNames.name(button, buttonName)
        }
        gtk_widget_set_visible(widget, text == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(OpaquePointer(widget), text == nil ? 0 : 1)
    }
}
