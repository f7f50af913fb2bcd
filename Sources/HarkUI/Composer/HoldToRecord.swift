import CAdwaita
import CGLib
import CGtk
import GLibSupport

/// The Record button acts at the press, never at the release, so the first
/// word is kept: a pointer or touch press starts recording (or stops it) at
/// once. The release then only tells a click from a hold, as in Telegram and
/// Signal: released within a short delay, it was a click and recording goes
/// on until Stop; held longer, releasing stops and saves, and dragging away
/// before releasing throws the take away.
///
/// The press is followed through raw events in the capture phase
/// (`PressButton.watchPointer`): the pointer stays the button's while it is
/// down, even when it leaves it. The button's own "clicked" (at the release,
/// or 250 ms after a keyboard activation) is not used; see `PressButton`.
@MainActor
final class HoldToRecord {
    /// How long a press must last to be a hold.
    static let holdDelayMilliseconds: UInt32 = 500
    /// How far (px) the pointer must move away for the release to cancel.
    static let cancelDistance = 64.0

    /// Held past the delay, with the recording this press started.
    private(set) var isHolding = false
    private(set) var isAway = false
    private var timer: Source?
    /// This press started the recording (so its release may end it).
    private var pressStarted = false

    /// Whether nothing is being recorded (a press starts, not stops).
    var isIdle: @MainActor () -> Bool = { true }
    /// The press: start recording (when idle) or stop and save (when recording).
    var onPress: @MainActor () -> Void = {}
    /// The press became a hold: releasing will now end the take.
    var onHold: @MainActor () -> Void = {}
    /// The pointer moved away (true) or back (false) while holding.
    var onAway: @MainActor (Bool) -> Void = { _ in }
    /// The hold ended: `away` true means cancel, false means save.
    var onRelease: @MainActor (_ away: Bool) -> Void = { _ in }

    func attach(to button: UnsafeMutablePointer<GtkWidget>, watchedFrom ancestor: UnsafeMutablePointer<GtkWidget>) {
        var origin = (x: 0.0, y: 0.0)
        PressButton.watchPointer(on: button, from: ancestor) { [weak self] phase, x, y in
            switch phase {
            case .press:
                origin = (x, y)
                self?.pressed()
            case .move:
                self?.moved(x - origin.x, y - origin.y)
            case .release:
                self?.moved(x - origin.x, y - origin.y)
                self?.released()
            }
        }
    }

    /// The recording ended by other means while pressed (an error, the
    /// maximum duration, Ctrl+R): the release that follows does nothing.
    func reset() {
        timer?.remove()
        timer = nil
        isHolding = false
        isAway = false
        pressStarted = false
    }

    private func pressed() {
        reset()
        let starting = isIdle()
        onPress()
        // A press that stops, or a start that failed at once: the release does nothing.
        guard starting, !isIdle() else { return }
        pressStarted = true
        timer = MainLoop.timeout(milliseconds: Self.holdDelayMilliseconds) { [weak self] in
            guard let self else { return false }
            self.timer = nil
            self.isHolding = true
            self.onHold()
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
        let wasHolding = isHolding
        let away = isAway
        reset()
        // A quick click: recording goes on until Stop.
        if wasHolding { onRelease(away) }
    }
}
