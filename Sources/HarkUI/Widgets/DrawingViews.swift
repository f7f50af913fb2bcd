import CAdwaita
import CGtk
import Drawing
import GLibSupport
import GtkSupport
import Levels

/// A drawing area whose picture comes from a closure; the base of the small
/// display widgets below. Every property change queues a redraw.
@MainActor
public class DrawnView {
    public let widget: UnsafeMutablePointer<GtkWidget>

    init(width: Int32, height: Int32) {
        widget = gtk_drawing_area_new()!
        gtk_widget_set_size_request(widget, width, height)
        DrawingArea.setDraw(hark_drawing_area(widget)) { [weak self] cairo, width, height in
            self?.draw(cairo, width: Double(width), height: Double(height))
        }
    }

    /// The side of the square the view draws in, once laid out.
    var drawnSize: Double { Double(min(gtk_widget_get_width(widget), gtk_widget_get_height(widget))) }

    func draw(_ cairo: OpaquePointer, width: Double, height: Double) {}

    func redraw() { gtk_widget_queue_draw(widget) }
}

/// The recording-time waveform: `append` a level (dBFS) as it arrives.
@MainActor
public final class LiveWaveformView: DrawnView {
    private var model = LiveWaveform()
    private let raster = LiveWaveformRaster()
    public var mapping = DisplayMapping.standard

    public init() { super.init(width: 120, height: 40) }

    public func append(decibels: Double) {
        model.append(mapping.fraction(decibels))
        redraw()
    }

    public func insert(decibels: Double, at index: Int) {
        model.insert(mapping.fraction(decibels), at: index)
        redraw()
    }

    public func clear() {
        model.removeAll()
        redraw()
    }

    override func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        // Growing from the side a message's waveform starts at.
        ReadingDirection.of(widget).orient(cairo, areaWidth: width)
        raster.draw(cairo, waveform: model, width: width, height: height,
                    scale: Double(gtk_widget_get_scale_factor(widget)), color: ThemeColors.accent(of: widget))
    }
}

/// A ring of progress: `set` jumps (drawn only when the arc visibly moves),
/// `animate` moves linearly on the frame clock and stops ticking at its end.
@MainActor
public final class CircularProgressView: DrawnView {
    private var ring = CircularProgress()
    private var value = 0.0
    private var animation: LinearAnimation?
    private var tick: UInt32?
    /// A label in the middle ("42%", "0:12"), or nothing.
    public var label: ((Double) -> String)? { didSet { redraw() } }
    /// Draws the arc in the error colour (a recording near its end).
    public var warning = false { didSet { if warning != oldValue { redraw() } } }
    /// Whether an animation's tick callback is installed.
    public var isAnimating: Bool { tick != nil }

    public init(size: Int32 = 48) { super.init(width: size, height: size) }

    public var progress: Double { value }

    /// Whether `set(progress)` would draw anything new.
    public func wouldChange(to progress: Double) -> Bool {
        ring.looksDifferent(value, progress, size: drawnSize) || label.map({ $0(value) != $0(progress) }) == true
    }

    public func set(_ progress: Double) {
        stopAnimation()
        let changes = wouldChange(to: progress)
        value = progress
        if changes { redraw() }
    }

    /// Animates from `start` (nil: the current value) to `target` over `seconds`.
    public func animate(from start: Double? = nil, to target: Double, duration seconds: Double) {
        stopAnimation()
        guard FrameClock.animationsEnabled, seconds > 0 else { return set(target) }
        let origin = start ?? value
        tick = FrameClock.addTick(widget) { [weak self] time in
            guard let self else { return false }
            if self.animation == nil {
                self.animation = LinearAnimation(from: origin, to: target, duration: seconds, start: time)
            }
            let animation = self.animation!
            self.value = animation.value(at: time)
            self.redraw()
            if animation.isFinished(at: time) {
                self.animation = nil
                self.tick = nil
                return false
            }
            return true
        }
    }

    private func stopAnimation() {
        if let tick { FrameClock.remove(widget, tick) }
        tick = nil
        animation = nil
    }

    override func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        var foreground = ThemeColors.foreground(of: widget)
        foreground.alpha *= 0.15
        ring.trackColor = foreground
        ring.progressColor = warning ? RGBA(hex: 0xE01B24) : ThemeColors.accent(of: widget)
        let size = min(width, height)
        cairo_translate(cairo, (width - size) / 2, (height - size) / 2)
        ring.draw(cairo, size: size, progress: value)
        if let label {
            let text = label(value)
            ThemeColors.foreground(of: widget).set(on: cairo)
            cairo_select_font_face(cairo, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(cairo, size / 4.5)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cairo, text, &extents)
            cairo_move_to(cairo, size / 2 - extents.width / 2 - extents.x_bearing, size / 2 - extents.height / 2 - extents.y_bearing)
            cairo_show_text(cairo, text)
        }
    }
}

/// Work of unknown length: a segment that sweeps along the track while
/// `start()`ed, on the frame clock, until `stop()` (or for ever, in the
/// gallery). Stands still when animations are turned off.
@MainActor
public final class IndeterminateBarView: DrawnView {
    private var bar = IndeterminateBar()
    private var time = 0.0
    private var tick: UInt32?

    /// Whether it moves at all: a still one (the gallery's `--still`) never
    /// ticks, so it costs nothing between frames.
    public let isAnimated: Bool
    /// Whether its frame-clock tick is installed.
    public var isTicking: Bool { tick != nil }

    public init(animated: Bool = true) {
        isAnimated = animated
        super.init(width: 120, height: 8)
        gtk_widget_set_hexpand(widget, 1)
    }

    /// Starts sweeping (the work began). A frame-clock tick runs only while
    /// the bar is shown, and not at all once stopped.
    public func start() {
        guard isAnimated, tick == nil else { return }
        tick = FrameClock.addTick(widget) { [weak self] frameTime in
            guard let self else { return false }
            self.time = frameTime
            if FrameClock.animationsEnabled { self.redraw() }
            return true
        }
    }

    /// Stops sweeping (the work ended): no more ticks.
    public func stop() {
        if let tick { FrameClock.remove(widget, tick) }
        tick = nil
    }

    public var secondsPerPass: Double {
        get { bar.secondsPerPass }
        set { bar.secondsPerPass = newValue; redraw() }
    }

    override func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        var track = ThemeColors.foreground(of: widget)
        track.alpha *= 0.15
        bar.trackColor = track
        bar.segmentColor = ThemeColors.accent(of: widget)
        ReadingDirection.of(widget).orient(cairo, areaWidth: width)
        bar.draw(cairo, width: width, height: height,
                 segment: isAnimated && FrameClock.animationsEnabled ? bar.segment(at: time) : bar.staticSegment)
    }
}

/// The level while recording: the pulse behind a round button, or the
/// three-line meter. `level` is in dBFS, set as each level arrives; the
/// pulse eases towards it by one level interval per arrival, so it moves at
/// the data's rate (20 times a second) and keeps no frame-clock tick.
@MainActor
public final class LevelMeterView: DrawnView {
    public enum Kind { case pulse, threeLines }
    private let kind: Kind
    private var pulse = LevelPulse()
    private var meter = ThreeLineMeter()
    /// Seconds between two levels: how far the pulse eases per arrival.
    public var levelInterval = 0.05
    public var level: Double = -100 {
        didSet {
            switch kind {
            case .threeLines:
                if meter.heights(decibels: level) != meter.heights(decibels: oldValue) { redraw() }
            case .pulse:
                let before = pulse.value
                pulse.advance(towards: level, seconds: FrameClock.animationsEnabled ? levelInterval : .infinity)
                if pulse.looksDifferent(before, pulse.value, buttonRadius: buttonRadius) { redraw() }
            }
        }
    }

    public init(kind: Kind, size: Int32 = 64) {
        self.kind = kind
        super.init(width: size, height: size)
    }

    /// Puts the pulse at rest (no sound) at once: a recording ended.
    public func rest() {
        let before = pulse.value
        pulse.rest()
        level = -100
        if before != pulse.value { redraw() }
    }

    private var buttonRadius: Double { drawnSize / 2 / (1 + pulse.reach) }

    override func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        let color = ThemeColors.accent(of: widget)
        switch kind {
        case .pulse:
            let button = min(width, height) / 2 / (1 + pulse.reach)
            pulse.draw(cairo, centreX: width / 2, centreY: height / 2, buttonRadius: button, color: color)
        case .threeLines:
            meter.draw(cairo, width: min(width, height * 0.6), height: height, decibels: level, color: color)
        }
    }
}
