import CAdwaita
import CGtk
import GLibSupport
import Localization

extension MainWindow {
    /// Says `text` in a toast over the history, for `seconds` of the user
    /// seeing it (0: until dismissed); a text too long for a toast's line
    /// shows its gist, and the whole of it behind "Details".
    /// Returns the toast, for dismissing it once what it says is over.
    @discardableResult
    func toast(_ text: String, seconds: UInt32 = 5, button: String? = nil,
               clicked: @escaping @MainActor () -> Void = {}) -> ObjectRef? {
        guard lifetime.isAlive else { return nil }  // work that ended after the window closed
        let (line, needsDetails) = ToastText.brief(text)
        let (toast, title) = newToast(line)
        adw_toast_set_timeout(toast, 0)  // counted by ToastCountdown
        if needsDetails, button == nil {
            adw_toast_set_button_label(toast, tr("_Details"))
            Signal.connect(UnsafeMutableRawPointer(toast), "button-clicked") { [weak self] in
                MessageDialogs.details(over: self?.window, heading: line, text: text)
            }
        } else if let button {
            // The answer to what the user just did: shown at once, not queued
            // behind an earlier message that waits to be dismissed.
            adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
            adw_toast_set_button_label(toast, button)
            Signal.connect(UnsafeMutableRawPointer(toast), "button-clicked", clicked)
        }
        showToast(toast, text)
        if seconds > 0 {
            ToastCountdown.start(toast, title: title, seconds: seconds, window: window, lifetime: lifetime)
        }
        return ObjectRef(retaining: UnsafeMutableRawPointer(toast))
    }

    /// A toast saying `line`, its title wrapped rather than cut: the toast's
    /// own title ends in "…" where a window (480 px, with a button beside it)
    /// is narrower than the line, and what is cut is the file name or the
    /// room the toast is about. Its button is named by its words alone.
    func newToast(_ line: String) -> (toast: OpaquePointer, title: UnsafeMutablePointer<GtkWidget>) {
        // The toast's own title takes markup (a title or a room name may hold "&" or "<").
        let toast = adw_toast_new(Markup.escape(line))!
        let title = gtk_label_new(line)!
        gtk_label_set_wrap(hark_label(title), 1)
        gtk_label_set_wrap_mode(hark_label(title), PANGO_WRAP_WORD_CHAR)
        // The toast asks for its natural width, never less: a wrapped line
        // asks for at most this, so it fits a 360 px window, in two lines.
        gtk_label_set_max_width_chars(hark_label(title), Int32(ToastText.longestWrapped / 2))
        gtk_widget_add_css_class(title, "heading")
        adw_toast_set_custom_title(toast, title)
        ButtonNames.nameWhenShown(toastTitle: title)
        return (toast, title)
    }
}
