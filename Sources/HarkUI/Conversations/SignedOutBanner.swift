import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization

/// A strip across the top of the content while the server has signed the
/// account out: "Signed out by the server" and a Sign In button. Nothing
/// was lost; sending waits until the user signs in again.
@MainActor
final class SignedOutBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    var onSignIn: @MainActor () -> Void = {}
    static var text: String { tr("Signed out by the server") }

    init() {
        widget = gtk_revealer_new()!
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "hark-banner")
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(box, 0) }
        label = gtk_label_new(Self.text)!
        gtk_label_set_wrap(hark_label(label), 1)
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_set_tooltip_text(label, tr("Sign in again to go on; nothing on this computer was lost."))
        gtk_box_append(hark_box(box), label)
        button = gtk_button_new_with_mnemonic(tr("_Sign In…"))!
        ButtonNames.name(button)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(box), button)
        gtk_revealer_set_child(OpaquePointer(widget), box)
        gtk_revealer_set_reveal_child(OpaquePointer(widget), 0)
        gtk_widget_set_visible(widget, 0)
        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.onSignIn() }
    }

    var isShown: Bool {
        get { gtk_revealer_get_reveal_child(OpaquePointer(widget)) != 0 }
        set {
            gtk_widget_set_visible(widget, newValue ? 1 : 0)
            gtk_revealer_set_reveal_child(OpaquePointer(widget), newValue ? 1 : 0)
        }
    }
}
