import CGLib
import CGtk
import GLibSupport
import GtkSupport
import HarkModel
import MessageStore

/// Running in the Background (`win.run-in-background`, off by default): with
/// it on, closing the window hides it, and Hark stays signed in, syncing,
/// sending what waits and notifying; the application holds on as long as its
/// window exists, hidden or not. Quit (Ctrl+Q) ends it. While it is on and an
/// account is signed in, an autostart entry starts Hark hidden at login.
extension MainWindow {
    static let runInBackgroundSetting = "run-in-background"
    static let runInBackgroundAction = "run-in-background"

    var runsInBackground: Bool { store?.setting(Self.runInBackgroundSetting) == "on" }

    /// Whether a close request hides the window rather than ending it.
    var hidesOnClose: Bool { runsInBackground && !isQuitting }

    /// The window ends, not hidden, and the application with it.
    func quit() {
        isQuitting = true
        if isVisible {
            gtk_window_close(window)  // saves a recording in progress first
        } else {
            gtk_window_destroy(window)
        }
    }

    var isVisible: Bool { gtk_widget_get_visible(Widget.widget(window)) != 0 }

    /// Hides the window: what it owns (the account, playback, transcription) goes on.
    func hide() {
        gtk_widget_set_visible(Widget.widget(window), 0)
    }

    func addBackgroundAction(to map: UnsafeMutableRawPointer) {
        let action = g_simple_action_new_stateful(Self.runInBackgroundAction, nil,
                                                  g_variant_new_boolean(runsInBackground ? 1 : 0))!
        Signal.connectPointer(UnsafeMutableRawPointer(action), "change-state") { [weak self] value in
            guard let self, let value else { return }
            g_simple_action_set_state(action, OpaquePointer(value))
            let on = g_variant_get_boolean(OpaquePointer(value)) != 0
            try? self.store?.setSetting(Self.runInBackgroundSetting, on ? "on" : "off")
            if on { self.updateAutostart(account: self.conversations?.account) } else { AutostartEntry().remove() }
        }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// While the preference is on: the autostart entry written once an account
    /// is signed in, removed once it is signed out (a session still being
    /// restored, or waiting for the keyring, leaves it as it is). Turning the
    /// preference off removes it.
    func updateAutostart(account: AccountModel?) {
        guard runsInBackground else { return }
        if account?.isSignedIn == true {
            try? AutostartEntry().write()
        } else if account?.state == .signedOut {
            AutostartEntry().remove()
        }
    }
}
