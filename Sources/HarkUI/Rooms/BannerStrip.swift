import CAdwaita
import CGtk
import GtkSupport

/// What the strips over a room share (an invitation waiting, a changed
/// identity): a revealer holding an icon, a label that wraps, and a button;
/// more may be appended to `box`. The label is set as plain text, never markup.
@MainActor
struct BannerStrip {
    let revealer: UnsafeMutablePointer<GtkWidget>
    let box: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>

    init(icon: String, button mnemonic: String) {
        revealer = gtk_revealer_new()!
        box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(box, "hark-banner")
        gtk_box_append(hark_box(box), gtk_image_new_from_icon_name(icon))
        label = gtk_label_new(nil)!
        gtk_label_set_wrap(hark_label(label), 1)
        gtk_label_set_wrap_mode(hark_label(label), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_box_append(hark_box(box), label)
        button = gtk_button_new_with_mnemonic(mnemonic)!
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(box), button)
        gtk_revealer_set_child(OpaquePointer(revealer), box)
    }

    /// Shows `text` (nil hides the strip), its button named `buttonName`.
    func show(_ text: String?, buttonName: String?) {
        if let text {
            gtk_label_set_text(hark_label(label), text)
            ButtonNames.name(button, buttonName)
        }
        gtk_widget_set_visible(revealer, text == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(OpaquePointer(revealer), text == nil ? 0 : 1)
    }
}
