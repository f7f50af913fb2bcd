import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport

/// Counts a toast's seconds only while the user can see it: while it is on
/// screen (not queued behind another) and its window is in front.
///
/// libadwaita's own timeout runs from the moment a toast shows, in front or
/// not: an import that fails while the user picks the next file in the
/// chooser, or while another app is in front, would say so to nobody.
@MainActor
final class ToastCountdown {
    private static let tickMilliseconds: UInt32 = 250
    private let toast: ObjectRef
    private let title: ObjectRef
    private let window: UnsafeMutablePointer<GtkWindow>
    private var remainingMilliseconds: Int
    private var ended = false

    /// Starts counting `seconds` for `toast`, whose custom `title` widget
    /// tells when it is on screen. Ends with the toast or with `lifetime`.
    @discardableResult
    static func start(_ toast: OpaquePointer, title: UnsafeMutablePointer<GtkWidget>,
                      seconds: UInt32, window: UnsafeMutablePointer<GtkWindow>,
                      lifetime: WidgetLifetime) -> ToastCountdown {
        let countdown = ToastCountdown(toast: toast, title: title, seconds: seconds, window: window)
        // The source holds the countdown; it lets go at the tick after the end.
        lifetime.timeout(milliseconds: tickMilliseconds) { countdown.advance() }
        Signal.connect(UnsafeMutableRawPointer(toast), "dismissed") { [weak countdown] in countdown?.ended = true }
        return countdown
    }

    private init(toast: OpaquePointer, title: UnsafeMutablePointer<GtkWidget>,
                 seconds: UInt32, window: UnsafeMutablePointer<GtkWindow>) {
        self.toast = ObjectRef(retaining: UnsafeMutableRawPointer(toast))
        self.title = ObjectRef(retaining: UnsafeMutableRawPointer(title))
        self.window = window
        remainingMilliseconds = Int(seconds) * 1000
    }

    /// Whether the toast is counting now: shown, in a window in front.
    var isSeen: Bool {
        let label = title.pointer.assumingMemoryBound(to: GtkWidget.self)
        return gtk_widget_get_mapped(label) != 0 && gtk_window_is_active(window) != 0
    }

    private func advance() -> Bool {
        guard !ended else { return false }
        if isSeen { remainingMilliseconds -= Int(Self.tickMilliseconds) }
        guard remainingMilliseconds <= 0 else { return true }
        ended = true
        adw_toast_dismiss(OpaquePointer(toast.pointer))
        return false
    }
}
