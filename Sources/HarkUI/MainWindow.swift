import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import MessageStore

/// The main window: a header bar, the message history (or its empty state),
/// and the composer that records; errors and undo arrive as toasts.
@MainActor
final class MainWindow {
    /// Borrowed: the application owns its windows.
    let window: UnsafeMutablePointer<GtkWindow>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private var history: HistoryView?
    private var composer: ComposerView?
    private var playback: PlaybackController?
    private let store: MessageStore?

    init(application: UnsafeMutablePointer<GtkApplication>, store: MessageStore?, storeProblem: String? = nil) {
        self.store = store
        let appWindow = adw_application_window_new(application)!
        window = UnsafeMutableRawPointer(appWindow).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_title(window, AppInfo.name)
        gtk_window_set_default_size(window, 480, 640)
        gtk_widget_set_size_request(appWindow, 360, 360)

        toasts = adw_toast_overlay_new()!
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(hark_box(content), Self.makeHeaderBar())
        stack = gtk_stack_new()!
        gtk_widget_set_vexpand(stack, 1)
        gtk_stack_add_named(OpaquePointer(stack), Self.makeEmptyState(problem: storeProblem), "empty")
        gtk_box_append(hark_box(content), stack)
        adw_toast_overlay_set_child(OpaquePointer(toasts), content)
        adw_application_window_set_content(hark_adw_application_window(appWindow), toasts)

        guard let store else { return }
        let playback = PlaybackController(store: store)
        let history = HistoryView(store: store, playback: playback)
        let composer = ComposerView(store: store)
        self.playback = playback
        self.history = history
        self.composer = composer
        gtk_stack_add_named(OpaquePointer(stack), history.widget, "history")
        gtk_box_append(hark_box(content), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(hark_box(content), composer.widget)

        playback.onChange = { [weak history] id in history?.refresh(id) }
        playback.onError = { [weak self] in self?.toast($0) }
        history.onCountChange = { [weak self] count in
            guard let self else { return }
            gtk_stack_set_visible_child_name(OpaquePointer(self.stack), count == 0 ? "empty" : "history")
        }
        history.onDelete = { [weak self] in self?.delete($0) }
        composer.onSaved = { [weak history] in history?.append($0.id) }
        composer.onError = { [weak self] in self?.toast($0, seconds: 0) }
        history.reload()

        Actions.add(to: UnsafeMutableRawPointer(appWindow), "record") { [weak composer] in composer?.toggleRecording() }
        // Escape cancels only while recording: otherwise it is for popovers.
        let cancelAction = Actions.add(to: UnsafeMutableRawPointer(appWindow), "cancel-recording") { [weak composer] in
            composer?.cancel()
        }
        g_simple_action_set_enabled(cancelAction, 0)
        composer.onStateChange = { [weak composer] in
            g_simple_action_set_enabled(cancelAction, composer?.isRecording == true ? 1 : 0)
        }
        Actions.add(to: UnsafeMutableRawPointer(appWindow), "pause-recording") { [weak composer] in composer?.togglePause() }
        // Closing (or quitting) while recording saves the recording first.
        Signal.connectReturning(UnsafeMutableRawPointer(appWindow), "close-request") { [weak self] in
            guard let self, let composer = self.composer, composer.isRecording else {
                self?.playback?.stop()
                return false
            }
            composer.finish { [weak self] in
                if let window = self?.window { gtk_window_destroy(window) }
            }
            return true
        }
        Actions.setAccels(application, "win.record", ["<Control>r"])
        Actions.setAccels(application, "win.cancel-recording", ["Escape"])
    }

    func present() {
        gtk_window_present(window)
    }

    /// Closes the window; a recording in progress is saved first.
    func close() {
        gtk_window_close(window)
    }

    /// Purges what this window deleted and whose Undo toast is still up;
    /// deletions made elsewhere (`hark delete`) stay undoable.
    func purgePendingDeletions() {
        for id in pendingDeletions { try? store?.purge(id) }
        pendingDeletions.removeAll()
    }
    private var pendingDeletions: Set<String> = []

    /// Deletes softly with an Undo toast; the message is purged (file and
    /// all) only when the toast goes away without Undo.
    private func delete(_ message: Message) {
        guard let store, let history else { return }
        if playback?.currentID == message.id { playback?.stop() }
        do { try store.delete(message.id) } catch {
            toast("\(message.title) could not be deleted: \(error)")
            return
        }
        history.remove(message.id)
        let toast = adw_toast_new("“\(message.title)” deleted")!
        adw_toast_set_button_label(toast, "_Undo")
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        var undone = false
        pendingDeletions.insert(message.id)
        Signal.connect(UnsafeMutableRawPointer(toast), "button-clicked") { [weak self, weak history] in
            undone = true
            self?.pendingDeletions.remove(message.id)
            try? store.undelete(message.id)
            history?.restore(message.id)
        }
        Signal.connect(UnsafeMutableRawPointer(toast), "dismissed") { [weak self] in
            self?.pendingDeletions.remove(message.id)
            if !undone { try? store.purge(message.id) }
        }
        adw_toast_overlay_add_toast(OpaquePointer(toasts), toast)
    }

    /// A message for the user; `seconds` 0 keeps it until dismissed.
    func toast(_ text: String, seconds: UInt32 = 5) {
        let toast = adw_toast_new(text)!
        adw_toast_set_timeout(toast, seconds)
        adw_toast_overlay_add_toast(OpaquePointer(toasts), toast)
    }

    private static func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let header = adw_header_bar_new()!
        let menu = g_menu_new()!
        g_menu_append(menu, "_About Hark", "app.about")
        g_menu_append(menu, "_Quit", "app.quit")
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(menuButton), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(OpaquePointer(menuButton), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_menu_button_set_primary(OpaquePointer(menuButton), 1)
        gtk_widget_set_tooltip_text(menuButton, "Main Menu")
        hark_accessible_set_label(UnsafeMutableRawPointer(menuButton), "Main Menu")
        g_object_unref(UnsafeMutableRawPointer(menu))
        adw_header_bar_pack_end(OpaquePointer(header), menuButton)
        return header
    }

    private static func makeEmptyState(problem: String?) -> UnsafeMutablePointer<GtkWidget> {
        let status = adw_status_page_new()!
        adw_status_page_set_icon_name(OpaquePointer(status), problem == nil ? "audio-input-microphone-symbolic" : "dialog-error-symbolic")
        adw_status_page_set_title(OpaquePointer(status), problem == nil ? "No messages yet" : "Messages unavailable")
        adw_status_page_set_description(
            OpaquePointer(status), problem ?? "Voice messages you record or import will appear here.")
        gtk_widget_set_vexpand(status, 1)
        gtk_widget_add_css_class(status, "hark-empty-history")
        return status
    }
}
