import CGStreamer
import CGStreamerHelpers
import Foundation
import GLibSupport
import Levels

/// Skip Silence: while playing, a timer jumps over each stretch that
/// `skipping` leaves out (a flushing seek to its end). The position, the
/// clock and seeking stay in the file's own time; a jump made late only
/// plays a little more of the pause, never less of a word (it never lands
/// past the stretch's end). The fades at each cut run on the streaming
/// thread (`volume` after `scaletempo`, whose segment still maps to the
/// file's time at every speed): the jump's timing does not make a click.
extension Player {
    /// `scaletempo` (speeds other than 1× keep the pitch), then the fader.
    static let audioFilter = "scaletempo ! volume name=\(faderName)"
    private static let faderName = "hark_cut_fader"
    /// How long each fade at a cut takes.
    static let fadeSeconds = 0.03
    /// How long the sound stays off after a jump's landing: scaletempo
    /// still gives out a few milliseconds it held from before the jump. Well
    /// inside the pause's end that is kept.
    static let silentAfterJump = 0.06
    /// A jump due this soon (or overdue) is made at once.
    private static let closeEnough = 0.005

    func skippingChanged() {
        if let pipeline, let fader = hark_playbin_filter_child(pipeline.element, Self.faderName) {
            let stretches = skipping?.skipped ?? []
            let starts = stretches.map(\.lowerBound), ends = stretches.map(\.upperBound)
            hark_set_cut_fades(fader, starts, ends, guint(stretches.count), Self.fadeSeconds, Self.silentAfterJump)
        }
        scheduleJump()
    }

    /// Sets the timer for the next jump from `position` (the pipeline's, when nil).
    func scheduleJump(from position: Double? = nil) {
        cancelJump()
        guard isPlaying, let skipping, let pipeline,
              let from = position ?? pipeline.position ?? Optional(lastPosition),
              let stretch = skipping.nextSkip(after: from) else { return }
        let wait = (stretch.lowerBound - from) / rate
        if wait <= Self.closeEnough {
            jump(over: stretch, in: pipeline)
            return
        }
        nextJump = MainLoop.timeout(milliseconds: UInt32(min(wait, 3600) * 1000)) { [weak self] in
            self?.nextJump = nil
            self?.scheduleJump()  // there now (or, after a stall, not yet: then later)
            return false
        }
    }

    func cancelJump() {
        nextJump?.remove()
        nextJump = nil
    }

    private func jump(over stretch: ClosedRange<Double>, in pipeline: Pipeline) {
        performSeek(pipeline, to: stretch.upperBound, mode: .exact)
        jumped(to: stretch.upperBound)
        scheduleJump(from: stretch.upperBound)
    }
}
