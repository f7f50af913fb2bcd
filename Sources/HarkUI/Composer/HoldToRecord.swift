import CAdwaita
import CGLib
import CGtk
import GLibSupport

/// Press-and-hold on the Record button, as in Telegram and Signal: holding
/// the button past a short delay records; releasing saves; dragging away
/// before releasing throws the take away. A quick click stays a click (the
/// button's own "clicked" toggles recording), and the click that ends a hold
/// is swallowed.
///
/// A GtkGestureDrag in the capture phase follows the press: it sees the
/// pointer even when it leaves the button, which the button's click gesture
/// does not report.
@MainActor
final class HoldToRecord {
    /// How long a press must last to be a hold.
    static let holdDelayMilliseconds: UInt32 = 500
    /// How far (px) the pointer must move away for the release to cancel.
    static let cancelDistance = 64.0

    private(set) var isHolding = false
    private(set) var isAway = false
    private var timer: Source?
    private var releasedJustNow = false

    var canBegin: @MainActor () -> Bool = { true }
    var onBegin: @MainActor () -> Void = {}
    /// The pointer moved away (true) or back (false) while holding.
    var onAway: @MainActor (Bool) -> Void = { _ in }
    /// The hold ended: `away` true means cancel, false means save.
    var onRelease: @MainActor (_ away: Bool) -> Void = { _ in }

    /// Whether the button's "clicked" belongs to a hold and must be ignored.
    var swallowsClick: Bool { isHolding || releasedJustNow }

    func attach(to button: UnsafeMutablePointer<GtkWidget>) {
        let gesture = gtk_gesture_drag_new()!
        gtk_gesture_single_set_button(gesture, guint(GDK_BUTTON_PRIMARY))
        gtk_event_controller_set_propagation_phase(gesture, GTK_PHASE_CAPTURE)
        Signal.connectPoint(UnsafeMutableRawPointer(gesture), "drag-begin") { [weak self] _, _ in self?.pressed() }
        Signal.connectPoint(UnsafeMutableRawPointer(gesture), "drag-update") { [weak self] dx, dy in self?.moved(dx, dy) }
        Signal.connectPoint(UnsafeMutableRawPointer(gesture), "drag-end") { [weak self] dx, dy in
            self?.moved(dx, dy)
            self?.released()
        }
        gtk_widget_add_controller(button, gesture)
    }

    /// The recording ended by itself while held (an error, the maximum
    /// duration): the release that follows must do nothing.
    func reset() {
        timer?.remove()
        timer = nil
        if isHolding { releasedJustNow = true }
        isHolding = false
        isAway = false
    }

    private func pressed() {
        timer?.remove()
        isAway = false
        guard canBegin() else { return }
        timer = MainLoop.timeout(milliseconds: Self.holdDelayMilliseconds) { [weak self] in
            guard let self else { return false }
            self.timer = nil
            self.isHolding = true
            self.onBegin()
            return false
        }
    }

    private func moved(_ dx: Double, _ dy: Double) {
        guard isHolding else { return }
        let away = (dx * dx + dy * dy).squareRoot() > Self.cancelDistance
        if away != isAway {
            isAway = away
            onAway(away)
        }
    }

    private func released() {
        timer?.remove()
        timer = nil
        if isHolding {
            isHolding = false
            let away = isAway
            isAway = false
            releasedJustNow = true
            onRelease(away)
        }
        // The button's "clicked" for this release comes in the same event.
        if releasedJustNow {
            MainLoop.idle { [weak self] in self?.releasedJustNow = false; return false }
        }
    }
}
