import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import MessageStore

/// The history's keys, which act on the focused message (or the last one):
/// Space plays or pauses, ←/→ seek 5 s, Delete deletes, F2 renames, Ctrl+C
/// copies it as a file. A
/// controller in the capture phase sees them before the focused widget;
/// buttons keep Space and text fields keep everything.
extension MainWindow {
    static let skipSeconds = 5.0

    func installKeyboard() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _, state in
            self?.handleKey(keyval, modifiers: state) ?? false
        }
        gtk_widget_add_controller(Widget.widget(window), keys)
    }

    /// Handles one key press; true when it was for the history.
    @discardableResult
    func handleKey(_ keyval: UInt32, modifiers: UInt32) -> Bool {
        let significant = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue | GDK_SHIFT_MASK.rawValue
        guard let history, let playback else { return false }
        let focus = gtk_root_get_focus(OpaquePointer(window))
        if let focus, Self.isA(focus, gtk_editable_get_type()) { return false }
        // Menus (popovers) take their own keys: Space activates an item there.
        if let focus, gtk_widget_get_ancestor(focus, gtk_popover_get_type()) != nil { return false }
        let row = focus.flatMap { history.row(holding: $0) }
        // Ctrl+C copies the focused message as a file.
        if modifiers & significant == GDK_CONTROL_MASK.rawValue, keyval == UInt32(GDK_KEY_c) || keyval == UInt32(GDK_KEY_C) {
            guard let message = row?.message, message.state != .missing else { return false }
            copy(message)
            return true
        }
        guard modifiers & significant == 0 else { return false }
        switch Int32(keyval) {
        case GDK_KEY_space, GDK_KEY_KP_Space:
            if let focus, Self.isA(focus, gtk_button_get_type()) { return false }
            guard let message = row?.message ?? history.lastMessage, message.state != .missing else { return false }
            playback.toggle(message)
            return true
        case GDK_KEY_Left, GDK_KEY_KP_Left, GDK_KEY_Right, GDK_KEY_KP_Right:
            guard let row, let focus, !row.isWaveform(focus), !row.isSecondaryControl(focus) else { return false }
            let forward = keyval == UInt32(GDK_KEY_Right) || keyval == UInt32(GDK_KEY_KP_Right)
            row.skip(by: forward ? Self.skipSeconds : -Self.skipSeconds)
            return true
        case GDK_KEY_Delete, GDK_KEY_KP_Delete:
            guard let message = row?.message else { return false }
            delete(message)
            return true
        case GDK_KEY_F2:
            guard let message = row?.message ?? history.lastMessage else { return false }
            askToRename(message)
            return true
        default:
            return false
        }
    }

    private static func isA(_ widget: UnsafeMutablePointer<GtkWidget>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }
}
