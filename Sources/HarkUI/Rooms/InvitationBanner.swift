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
    private let strip: BannerStrip
    var onView: @MainActor () -> Void = {}
    var onDismiss: @MainActor () -> Void = {}

    init() {
        // TRANSLATORS: a button beside "Invitation to “Room” from Someone": shows the invitation.
        strip = BannerStrip(icon: "mail-unread-symbolic", button: tr("_View"))
        (widget, label, button) = (strip.revealer, strip.label, strip.button)
        closeButton = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(closeButton, "flat")
        gtk_widget_add_css_class(closeButton, "circular")
        gtk_widget_set_valign(closeButton, GTK_ALIGN_CENTER)
        // TRANSLATORS: the close button of the strip that announces an invitation.
        let dismiss = tr("Dismiss")
        gtk_widget_set_tooltip_text(closeButton, dismiss)
        ButtonNames.name(closeButton, dismiss)
        gtk_box_append(hark_box(strip.box), closeButton)
        show(nil, buttonName: nil)
        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.onView() }
        Signal.connect(UnsafeMutableRawPointer(closeButton), "clicked") { [weak self] in self?.onDismiss() }
    }

    /// Shows `text` (nil hides the banner), its button named `buttonName`.
    func show(_ text: String?, buttonName: String?) {
        strip.show(text, buttonName: buttonName)
    }
}
