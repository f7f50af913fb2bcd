import CAdwaita
import CGtk
import GtkSupport

/// A thin strip above the composer for work the user waits on: what is
/// happening in words, and under it the indeterminate bar until a fraction
/// is known, then a determinate one. Slides away when idle.
@MainActor
final class ProgressStrip {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let bars: UnsafeMutablePointer<GtkWidget>
    private let indeterminate = IndeterminateBarView()
    private let determinate: UnsafeMutablePointer<GtkWidget>

    /// What the strip says now; nil when hidden.
    private(set) var text: String?
    /// The fraction shown, nil while indeterminate.
    private(set) var fraction: Double?
    /// Whether the indeterminate bar's animation is running.
    var isAnimating: Bool { indeterminate.isTicking }

    init() {
        let revealer = gtk_revealer_new()!
        gtk_revealer_set_transition_type(OpaquePointer(revealer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        widget = revealer
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_widget_add_css_class(box, "hark-progress")
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top] { side(box, 12) }
        gtk_widget_set_margin_bottom(box, 4)
        label = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_label_set_ellipsize(hark_label(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_add_css_class(label, "caption")
        gtk_box_append(hark_box(box), label)
        bars = gtk_stack_new()!
        determinate = gtk_progress_bar_new()!
        gtk_stack_add_named(OpaquePointer(bars), indeterminate.widget, "indeterminate")
        gtk_stack_add_named(OpaquePointer(bars), determinate, "determinate")
        gtk_box_append(hark_box(box), bars)
        gtk_revealer_set_child(OpaquePointer(revealer), box)
    }

    /// Work whose length is not known yet.
    func show(_ text: String) {
        set(text)
        fraction = nil
        gtk_stack_set_visible_child_name(OpaquePointer(bars), "indeterminate")
        indeterminate.start()
    }

    /// Work `fraction` (0…1) done.
    func show(_ text: String, fraction: Double) {
        set(text)
        self.fraction = min(max(fraction, 0), 1)
        gtk_progress_bar_set_fraction(OpaquePointer(determinate), self.fraction!)
        gtk_stack_set_visible_child_name(OpaquePointer(bars), "determinate")
        indeterminate.stop()
    }

    func hide() {
        text = nil
        fraction = nil
        indeterminate.stop()
        gtk_revealer_set_reveal_child(OpaquePointer(widget), 0)
    }

    private func set(_ text: String) {
        if self.text != text {
            gtk_label_set_text(hark_label(label), text)
            hark_accessible_set_label(UnsafeMutableRawPointer(determinate), text)
        }
        self.text = text
        gtk_revealer_set_reveal_child(OpaquePointer(widget), 1)
    }
}
