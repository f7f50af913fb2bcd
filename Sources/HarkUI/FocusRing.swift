import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport

/// Keeps the focus ring on the history while the keyboard is in use. GTK
/// hides a window's focus ring three seconds after the last key it saw
/// (its VISIBLE_FOCUS_DURATION); on a row that plays for a minute after
/// Space, the ring was gone while the screen reader still had the row.
/// From a key press until the next pointer press the ring stays where
/// `keeps` says (the history); a click hands it back to GTK's own timing.
@MainActor
final class FocusRing {
    private let window: UnsafeMutablePointer<GtkWindow>
    private let keeps: @MainActor (UnsafeMutablePointer<GtkWidget>) -> Bool
    /// A key was pressed, and no pointer since. (Set also by the window's
    /// own keys: a key controller that takes a key hides it from the rest.)
    var keyboardInUse = false

    init(window: UnsafeMutablePointer<GtkWindow>, keeps: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Bool) {
        self.window = window
        self.keeps = keeps
        let root = Widget.widget(window)
        // Both in the capture phase, neither claims: they only watch.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] _, _, _ in
            self?.keyboardInUse = true
            return false
        }
        gtk_widget_add_controller(root, keys)
        let clicks = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(clicks, 0)
        gtk_event_controller_set_propagation_phase(clicks, GTK_PHASE_CAPTURE)
        Signal.connectPress(UnsafeMutableRawPointer(clicks), "pressed") { [weak self] _, _, _ in
            self?.keyboardInUse = false
        }
        gtk_widget_add_controller(root, clicks)
        Signal.connectPointer(UnsafeMutableRawPointer(window), "notify::focus-visible") { [weak self] _ in
            self?.focusVisibleChanged()
        }
    }

    private func focusVisibleChanged() {
        guard keyboardInUse, gtk_window_get_focus_visible(window) == 0,
              let focus = gtk_root_get_focus(OpaquePointer(window)), keeps(focus) else { return }
        gtk_window_set_focus_visible(window, 1)
    }
}
