import CGLib
import CGtk
import GLibSupport
import GtkSupport
import MessageStore

/// What can be done to one message of the history, as named actions that
/// carry its id ("history.delete" with the message's id as target), as
/// Fractal's `room-history.*` carry an event's. One group, on the history's
/// widget, serves both lists: a row's buttons and menu items name an action
/// and their message (`action-name` and `action-target`), the keys on a
/// focused row activate the same actions, and whoever does the work adds it
/// (the window deletes, renames, exports and copies; the account sends).
@MainActor
final class HistoryActions {
    enum Name: String, CaseIterable {
        case play, rename, copy, export, delete
        case sendTo = "send-to", deleteForEveryone = "delete-for-everyone", retry
        case transcribe, showTranscript = "show-transcript", copyTranscript = "copy-transcript"

        /// "history.delete", for a button's or a menu item's action.
        var detailed: String { HistoryActions.prefix + "." + rawValue }
    }

    nonisolated static let prefix = "history"
    /// Borrowed: the history's widget holds it.
    let group: OpaquePointer
    private let store: MessageStore
    private let lifetime: WidgetLifetime
    /// Closes the row menu that is open, if one is; whether one was.
    var closeOpenMenu: @MainActor () -> Bool = { false }

    init(store: MessageStore, on widget: UnsafeMutablePointer<GtkWidget>, lifetime: WidgetLifetime) {
        self.store = store
        self.lifetime = lifetime
        let group = g_simple_action_group_new()!
        self.group = OpaquePointer(group)
        gtk_widget_insert_action_group(widget, Self.prefix, OpaquePointer(group))
        g_object_unref(UnsafeMutableRawPointer(group))  // the widget holds it
    }

    /// Adds the work of `name`: it gets the message the activation's id
    /// names, read from the store when the work runs (an id the store no
    /// longer has does nothing). Chosen from a row's menu, the work waits
    /// for the menu to go: the row may change (Delete takes it out of the
    /// list), and GTK would look up a pointer position on the popover's
    /// destroyed surface.
    func add(_ name: Name, _ work: @escaping @MainActor (Message) -> Void) {
        Actions.addTakingString(to: UnsafeMutableRawPointer(group), name.rawValue) { [weak self] id in
            guard let self else { return }
            guard self.closeOpenMenu() else { return self.run(id, work) }
            self.lifetime.idle { [weak self] in
                self?.run(id, work)
                return false
            }
        }
    }

    private func run(_ id: String, _ work: @MainActor (Message) -> Void) {
        guard let message = try? store.message(id) else { return }
        work(message)
    }

    /// Does `name` to the message `id`, as a row's button or menu item does.
    func activate(_ name: Name, _ id: String) {
        g_action_group_activate_action(group, name.rawValue, g_variant_new_string(id))
    }
}
