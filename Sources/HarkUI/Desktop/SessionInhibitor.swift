import CGtk
import HarkModel

/// Keeps the session from suspending or logging out while a take is
/// recorded, and from going idle while a message plays (through the
/// GtkApplication, which asks the session manager or the portal).
@MainActor
final class SessionInhibitor {
    private let application: UnsafeMutablePointer<GtkApplication>
    private let window: UnsafeMutablePointer<GtkWindow>
    private var held: SessionInhibition?
    private var cookie: guint = 0

    init(application: UnsafeMutablePointer<GtkApplication>, window: UnsafeMutablePointer<GtkWindow>) {
        self.application = application
        self.window = window
    }

    /// Holds what `recording` and `playing` need, letting go of the rest.
    func update(recording: Bool, playing: Bool) {
        let needed = SessionInhibition.needed(recording: recording, playing: playing)
        guard needed != held else { return }
        release()
        held = needed
        if let needed {
            cookie = gtk_application_inhibit(application, window, GtkApplicationInhibitFlags(rawValue: needed.flags.rawValue), needed.reason)
        }
    }

    func release() {
        if cookie != 0 { gtk_application_uninhibit(application, cookie) }
        cookie = 0
        held = nil
    }
}
