import CGtk

@MainActor
public enum Label {
    /// Sets a label's text only when it differs: an unchanged clock ("0:12")
    /// set 20 times a second must not relayout and redraw the window.
    public static func setText(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        let current = gtk_label_get_text(hark_label(label)).map { String(cString: $0) }
        if current != text { gtk_label_set_text(hark_label(label), text) }
    }
}
