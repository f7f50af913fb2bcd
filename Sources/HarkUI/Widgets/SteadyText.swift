import CAdwaita
import CGLib
import CGtk
import GtkSupport

/// One line of text that changes often, a clock, drawn anew without laying
/// the window out again. A GtkLabel asks the whole window for a new layout
/// at every new text: on X11 that costs GTK several round trips to the X
/// server (the monitor's work area) once a second, and in the history a
/// restyle of the list whose CSS transitions keep the frame clock running
/// (45 frames a second while one row played, for 18 drawn). A GtkInscription
/// only redraws; this box around one asks for the width of the text shown,
/// which is measured at each change and asked for again only when it
/// differs (with the "numeric" style's even-width digits, when a digit is
/// added or the words change), and at each layout GTK does anyway (a new
/// font or text size). Screen readers read the text as the label's name.
@MainActor
final class SteadyText {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The text's own widget: style classes go here.
    let inscription: UnsafeMutablePointer<GtkWidget>
    private(set) var text: String
    /// The width the box asked for at its last layout.
    private var askedWidth: Int32 = 0

    /// `styles`: CSS classes for the text ("numeric" for a clock). Classes
    /// that add padding or borders do not belong here: the width asked for
    /// is the text's.
    init(_ text: String, styles: [String] = [], xalign: Float = 0) {
        self.text = text
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!  // laid out below, not as a box
        inscription = gtk_inscription_new(text)!
        gtk_inscription_set_min_chars(OpaquePointer(inscription), 0)
        gtk_inscription_set_xalign(OpaquePointer(inscription), xalign)
        gtk_inscription_set_text_overflow(OpaquePointer(inscription), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END)
        for style in styles { gtk_widget_add_css_class(inscription, style) }
        gtk_box_append(hark_box(widget), inscription)
        CustomLayout.install(on: widget, heightForWidth: false, measure: { [weak self] orientation, _ in
            self?.measure(orientation) ?? (0, 0)
        }, allocate: { [weak self] width, height, baseline in
            guard let self else { return }
            gtk_widget_allocate(self.inscription, width, height, baseline, nil)
        })
    }

    /// Shows `newText`; lays the window out again only when its width differs.
    func set(_ newText: String) {
        guard newText != text else { return }
        text = newText
        gtk_inscription_set_text(OpaquePointer(inscription), newText)
        if textWidth() != askedWidth { gtk_widget_queue_resize(widget) }
    }

    /// The text's width in pixels, in the inscription's font and style.
    private func textWidth() -> Int32 {
        guard let layout = gtk_widget_create_pango_layout(inscription, text) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return width
    }

    private func measure(_ orientation: GtkOrientation) -> (minimum: Int32, natural: Int32) {
        if orientation == GTK_ORIENTATION_HORIZONTAL {
            askedWidth = textWidth()
            return (askedWidth, askedWidth)
        }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(inscription, orientation, -1, &minimum, &natural, nil, nil)
        return (minimum, natural)
    }
}
