import CAdwaita
import CGLib
import CGtk
import Drawing
import GLibSupport
import GtkSupport
import MessageStore

/// The history's keys, which act on the focused message (or the last one):
/// Space or Enter plays or pauses, ←/→ seek 5 s, Home/End go to the start or
/// the end, the Menu key (or Shift+F10) opens its menu, Delete deletes, F2
/// renames, Ctrl+C copies it as a file, Ctrl+E exports it. The list is one
/// Tab stop, as a GtkListBox is: Tab and Shift+Tab leave it, the arrows move
/// between messages. A controller in the capture phase sees the keys before the
/// focused widget; menus keep theirs, and text fields every key but Tab
/// (which moves on as GTK's own Tab would).
extension MainWindow {
    static let skipSeconds = 5.0

    func installKeyboard() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _, state in
            guard let self, self.handleKey(keyval, modifiers: state) else { return false }
            // A key taken here shows the focus ring as one GTK sees does.
            self.focusRing?.keyboardInUse = true
            gtk_window_set_focus_visible(self.window, 1)
            return true
        }
        gtk_widget_add_controller(Widget.widget(window), keys)
        // The history follows the focus (see HistoryView.focusMoved).
        Signal.connectPointer(UnsafeMutableRawPointer(window), "notify::focus-widget") { [weak self] _ in
            guard let self, let history = self.history, let focus = gtk_root_get_focus(OpaquePointer(self.window)),
                  history.holdsFocus(focus) else { return }
            history.focusMoved(to: focus)
        }
    }

    /// Handles one key press; true when it was for the history.
    @discardableResult
    func handleKey(_ keyval: UInt32, modifiers: UInt32) -> Bool {
        let significant = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue | GDK_SHIFT_MASK.rawValue
        let pressed = modifiers & significant
        guard let history, playback != nil else { return false }
        let focus = gtk_root_get_focus(OpaquePointer(window))
        // Menus (popovers) take their own keys: Space activates an item there.
        if let focus, gtk_widget_get_ancestor(focus, gtk_popover_get_type()) != nil { return false }
        let key = Int32(keyval)
        // Tab leaves the list, and comes into it where the eye is; Ctrl+Tab
        // is GTK's own way on, row by row.
        if key == GDK_KEY_Tab || key == GDK_KEY_KP_Tab || key == GDK_KEY_ISO_Left_Tab, pressed & ~GDK_SHIFT_MASK.rawValue == 0 {
            tab(backward: key == GDK_KEY_ISO_Left_Tab || pressed == GDK_SHIFT_MASK.rawValue, in: history)
            return true
        }
        if let focus, Self.isA(focus, gtk_editable_get_type()) { return false }
        let row = focus.flatMap { history.row(holding: $0) }
        // Space and F2 act on the last message when the focus is elsewhere, not
        // when it is in the list on the take being recorded (no message).
        let fallback = focus.map(history.holdsFocus) == true ? nil : history.lastMessage
        if (key == GDK_KEY_Menu && pressed == 0) || (key == GDK_KEY_F10 && pressed == GDK_SHIFT_MASK.rawValue) {
            guard let row, row.message != nil else { return false }
            row.openMenu()
            return true
        }
        // Ctrl+C copies the focused message as a file.
        if pressed == GDK_CONTROL_MASK.rawValue, keyval == UInt32(GDK_KEY_c) || keyval == UInt32(GDK_KEY_C) {
            guard let message = row?.message, message.state != .missing else { return false }
            history.actions.activate(.copy, message.id)
            return true
        }
        // Ctrl+E exports the focused message (as GNOME apps' Export does).
        if pressed == GDK_CONTROL_MASK.rawValue, keyval == UInt32(GDK_KEY_e) || keyval == UInt32(GDK_KEY_E) {
            guard let message = row?.message, message.state != .missing else { return false }
            history.actions.activate(.export, message.id)
            return true
        }
        guard pressed == 0 else { return false }
        switch key {
        case GDK_KEY_space, GDK_KEY_KP_Space:
            if let focus, Self.isA(focus, gtk_button_get_type()) { return false }
            guard let message = row?.message ?? fallback, message.state != .missing else { return false }
            history.actions.activate(.play, message.id)
            return true
        case GDK_KEY_Left, GDK_KEY_KP_Left, GDK_KEY_Right, GDK_KEY_KP_Right:
            guard let row else { return false }
            // An arrow moves the playhead the way it points: right to left
            // (Persian), a message runs from the right, so ← goes forward.
            let rightward = key == GDK_KEY_Right || key == GDK_KEY_KP_Right
            let forward = rightward == (ReadingDirection.of(row.widget) == .leftToRight)
            row.skip(by: forward ? Self.skipSeconds : -Self.skipSeconds)
            return true
        case GDK_KEY_Home, GDK_KEY_KP_Home, GDK_KEY_End, GDK_KEY_KP_End:
            guard let row, let message = row.message else { return false }
            let toEnd = key == GDK_KEY_End || key == GDK_KEY_KP_End
            row.skip(by: toEnd ? message.duration : -message.duration)
            return true
        case GDK_KEY_Delete, GDK_KEY_KP_Delete:
            guard let message = row?.message else { return false }
            history.actions.activate(.delete, message.id)
            return true
        case GDK_KEY_F2:
            guard let message = row?.message ?? fallback else { return false }
            history.actions.activate(.rename, message.id)
            return true
        case GDK_KEY_Escape:
            // Esc closes the search from a result as from its field (GTK's
            // search bar hears it only in the field); while recording it
            // is Cancel's.
            guard search.isOpen, composer?.isRecording != true else { return false }
            search.close()
            return true
        default:
            return false
        }
    }

    /// Moves the focus as Tab does (GTK's own chain, as its window's
    /// move-focus), but with the history as one widget: from a row, the
    /// history is taken out of the chain for the move.
    private func tab(backward: Bool, in history: HistoryView) {
        let root = Widget.widget(window)
        let leaving = gtk_root_get_focus(OpaquePointer(window)).map(history.holdsFocus) ?? false
        let remembered = history.lastFocusedKey
        if leaving { gtk_widget_set_can_focus(history.widget, 0) }
        if gtk_widget_child_focus(root, backward ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD) == 0,
           gtk_widget_get_focus_child(root) == nil {
            gtk_window_set_focus(window, nil)
        }
        if leaving { gtk_widget_set_can_focus(history.widget, 1) }
        if !leaving, let focus = gtk_root_get_focus(OpaquePointer(window)), history.holdsFocus(focus) {
            history.focusEnteredByTab(focus, remembered: remembered)
        }
        gtk_window_set_focus_visible(window, 1)
    }

    private static func isA(_ widget: UnsafeMutablePointer<GtkWidget>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }
}
