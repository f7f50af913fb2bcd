import CAdwaita
import CGtk

/// A wrapped label for a sentence or a paragraph of Hark's own words, laid
/// out in the direction of the user's language. Pango takes a paragraph's
/// direction from its first strong character, so a Persian paragraph that
/// begins with the Latin "Hark" ran left to right.
@MainActor
enum SentenceLabel {
    static func make(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        gtk_label_set_wrap(hark_label(label), 1)
        gtk_label_set_xalign(hark_label(label), 0)
        set(label, text)
        return label
    }

    static func set(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        gtk_label_set_text(hark_label(label), inLocaleDirection(text))
    }

    /// `text` beginning with a right-to-left mark where the user's language
    /// reads right to left (the mark is not seen, nor said by a screen reader).
    static func inLocaleDirection(_ text: String) -> String {
        guard !text.isEmpty, gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL, !text.hasPrefix("\u{200F}") else { return text }
        return "\u{200F}" + text
    }
}
