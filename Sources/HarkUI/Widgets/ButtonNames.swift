import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport

/// Buttons named by their words alone, as a screen reader should say them.
/// GTK 4.8 names a button by the label inside it and by its own label
/// property together ("Cancel Cancel", "Send “Notes” again Retry"), and reads
/// a mnemonic's underscore ("_Undo Undo").
@MainActor
enum ButtonNames {
    /// "_Keep Recording" as a screen reader should say it: "Keep Recording".
    /// ("__" is a written underscore.)
    nonisolated static func plainLabel(_ mnemonic: String) -> String {
        var plain = ""
        var escaped = false
        for character in mnemonic {
            if character == "_", !escaped {
                escaped = true
                continue
            }
            escaped = false
            plain.append(character)
        }
        return plain
    }

    /// Names `button` `words`, or its own label's words.
    static func name(_ button: UnsafeMutablePointer<GtkWidget>, _ words: String? = nil) {
        guard let words = words ?? gtk_button_get_label(hark_button(button)).map({ plainLabel(String(cString: $0)) }),
              !words.isEmpty else { return }
        hark_accessible_name_button(UnsafeMutableRawPointer(button), words)
    }

    /// Names every button with a label under `root` by its words (a
    /// dialog's responses, which libadwaita and GTK make themselves).
    static func nameAll(in root: UnsafeMutablePointer<GtkWidget>) {
        for button in Widget.descendants(of: root) where Widget.typeName(button) == "GtkButton" {
            name(button)
        }
    }

    /// Names a toast's button once it is on screen: libadwaita makes the
    /// toast's widgets only when it shows, around `title` (its custom title).
    static func nameWhenShown(toastTitle title: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(UnsafeMutableRawPointer(title), "map") {
            var widget: UnsafeMutablePointer<GtkWidget>? = title
            while let current = widget, Widget.typeName(current) != "AdwToastWidget" { widget = gtk_widget_get_parent(current) }
            if let toast = widget { nameAll(in: toast) }
        }
    }
}
