import CGLib
import CAdwaita
import CGtk
import Drawing
import GLibSupport
import GtkSupport
import Levels
import Localization
import MessageStore

/// A message's waveform that is also its seek bar.
///
/// It is a GtkScale laid over a drawing area: the scale, made invisible by
/// CSS but for its focus ring, takes the clicks, drags and keys (←/→ ±5 s,
/// Home/End) and is what screen readers see — a slider named "Position"
/// whose value is the position in seconds (on GTK 4.8 only a GtkRange
/// exposes its value to AT-SPI). The drawing area under it shows the bars,
/// played part in the accent colour, with a hover preview up to the pointer.
@MainActor
public final class WaveformView {
    /// The widget to put in a layout.
    public let widget: UnsafeMutablePointer<GtkWidget>
    let area: UnsafeMutablePointer<GtkWidget>
    private let scale: UnsafeMutablePointer<GtkWidget>
    private var fractions: [Double] = [] { didSet { cache.invalidate() } }
    private let cache = WaveformCache()
    private var hover: Double?
    /// Where the played part ended at the last draw, in pixels: a new
    /// position that does not move it by half a pixel draws nothing.
    private var drawnPlayedX: Double?
    private var settingFromOutside = false
    private var dragging = false
    /// The width fit waits for the allocation to end; never past the widget.
    private let lifetime: WidgetLifetime

    /// While the pointer drags (or a key repeats): the position to preview, in seconds.
    public var onPreview: @MainActor (Double) -> Void = { _ in }
    /// When the seek is done (button released, key pressed): seek there.
    public var onSeek: @MainActor (Double) -> Void = { _ in }

    public var style: WaveformStyle = .bars { didSet { redraw() } }
    public var layout = WaveformLayout() { didSet { redraw() } }
    public var mapping = DisplayMapping.standard { didSet { redraw() } }

    /// The mouse wheel scrolls the list the waveform is in, never seeks: a
    /// GtkRange takes wheel events for itself, so its scroll controller goes.
    /// Seeking stays a drag, a click or a key.
    private static func removeScrollControllers(from widget: UnsafeMutablePointer<GtkWidget>) {
        let controllers = gtk_widget_observe_controllers(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        var scrolls: [OpaquePointer] = []
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let item = g_list_model_get_item(controllers, index) else { continue }
            defer { g_object_unref(item) }
            if g_type_check_instance_is_a(item.assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_event_controller_scroll_get_type()) != 0 {
                scrolls.append(OpaquePointer(item))
            }
        }
        for controller in scrolls { gtk_widget_remove_controller(widget, controller) }
    }

    public init() {
        let overlay = gtk_overlay_new()!
        widget = overlay
        lifetime = WidgetLifetime(of: overlay)
        area = gtk_drawing_area_new()!
        scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 1)!
        gtk_scale_set_draw_value(UnsafeMutableRawPointer(scale).assumingMemoryBound(to: GtkScale.self), 0)
        gtk_widget_add_css_class(scale, "hark-waveform")
        hark_accessible_set_label(UnsafeMutableRawPointer(scale), tr("Position"))
        gtk_widget_set_size_request(area, 120, 40)
        gtk_widget_set_hexpand(overlay, 1)
        gtk_overlay_set_child(hark_overlay(overlay), area)
        gtk_overlay_add_overlay(hark_overlay(overlay), scale)
        gtk_widget_set_valign(scale, GTK_ALIGN_FILL)

        DrawingArea.setDraw(hark_drawing_area(area)) { [weak self] cairo, width, height in
            self?.draw(cairo, width: Double(width), height: Double(height))
        }
        // The width follows the duration: given what the row offers (the
        // parent's width), the rest is left as a margin. The parent's width
        // does not depend on it, so this settles in one pass.
        Signal.connectResize(UnsafeMutableRawPointer(area)) { [weak self] _, _ in self?.fitToDuration() }
        Signal.connect(UnsafeMutableRawPointer(scale), "value-changed") { [weak self] in self?.valueChanged() }
        // A key steps from where the playhead is, not from the last whole second.
        Signal.connectInt(UnsafeMutableRawPointer(scale), "move-slider") { [weak self] _ in self?.moveSliderToPlayhead() }
        Self.removeScrollControllers(from: scale)

        // Seeks are committed when the button comes up (or on a key): a
        // legacy controller in the capture phase sees the release before the
        // scale's own gestures, and lets it through.
        let events = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(events, GTK_PHASE_CAPTURE)
        Signal.connectPointerReturning(UnsafeMutableRawPointer(events), "event") { [weak self] event in
            guard let self, let event else { return false }
            switch gdk_event_get_event_type(OpaquePointer(event)) {
            case GDK_BUTTON_PRESS: self.dragging = true
            case GDK_BUTTON_RELEASE:
                self.dragging = false
                self.onSeek(self.position)
            default: break
            }
            return false
        }
        gtk_widget_add_controller(scale, events)

        let motion = gtk_event_controller_motion_new()!
        Signal.connectPoint(UnsafeMutableRawPointer(motion), "motion") { [weak self] x, _ in
            guard let self else { return }
            let areaWidth = Double(gtk_widget_get_width(self.area))
            self.hover = ReadingDirection.of(self.area)
                .fraction(atX: x, areaWidth: areaWidth, drawnWidth: self.drawnWidth(areaWidth))
            self.redraw()
        }
        Signal.connect(UnsafeMutableRawPointer(motion), "leave") { [weak self] in
            self?.hover = nil
            self?.redraw()
        }
        gtk_widget_add_controller(overlay, motion)
    }

    /// What a screen reader calls the slider ("Position" until told).
    public func setAccessibleName(_ name: String) {
        hark_accessible_set_label(UnsafeMutableRawPointer(scale), name)
    }

    /// A waveform inside a list row is no focus stop of its own, for the
    /// keyboard or a click: the focused row takes its keys (←/→ seek).
    public func leaveFocusToRow() {
        gtk_widget_set_focusable(scale, 0)
        gtk_widget_set_focus_on_click(scale, 0)
    }

    /// The message's levels (dBFS RMS), mapped to bar heights.
    public func setLevels(_ track: LevelTrack) {
        pendingLevels = nil
        fractions = mapping.fractions(track.rms)
        redraw()
    }

    /// Levels read only when first drawn: a list keeps many rows it never
    /// shows, and a row off screen need not decode its waveform.
    public func setLevels(loading load: @escaping @MainActor () -> LevelTrack) {
        pendingLevels = load
        fractions = []
        redraw()
    }
    private var pendingLevels: (@MainActor () -> LevelTrack)?

    /// The duration in seconds: the slider's maximum.
    public var duration: Double {
        get { gtk_range_get_adjustment(hark_range(scale)).map { gtk_adjustment_get_upper($0) } ?? 0 }
        set {
            let adjustment = gtk_range_get_adjustment(hark_range(scale))
            settingFromOutside = true  // the clamp to a new length is no seek
            gtk_adjustment_configure(adjustment, min(position, newValue), 0, max(0.001, newValue), 5, 5, 0)
            settingFromOutside = false
            playhead = sliderValue
            updateValueText()
            redraw()
            fitToDuration()
        }
    }

    /// The playing position in seconds. Setting it (from the player) does
    /// not call `onPreview` or `onSeek`.
    ///
    /// While the message plays, the slider follows only when the whole
    /// second changes (or a key is about to move it): each new value of a
    /// GtkRange lays the whole window out (on X11 a round trip to the X
    /// server for the monitor's work area), which at the player's 20
    /// positions a second was most of what playing cost. The slider is
    /// invisible; a screen reader hears the second, and the exact position
    /// once playing stops.
    public var position: Double {
        get { playhead }
        set {
            guard !dragging else { return }  // the user has the playhead
            playhead = newValue
            if !isPlaying || DurationText.wholeSeconds(newValue) != DurationText.wholeSeconds(sliderValue) {
                moveSliderToPlayhead()
            } else if movesPlayhead(to: playedFraction) {
                redraw()
            }
        }
    }
    /// Whether the message plays (the position moves on by itself): the
    /// slider then follows by the second, and is put at the exact position
    /// when it stops.
    public var isPlaying = false {
        didSet { if !isPlaying { moveSliderToPlayhead() } }
    }
    /// The position drawn and reported: the player's, or the slider's once the user moves it.
    private var playhead = 0.0
    private var sliderValue: Double { gtk_range_get_value(hark_range(scale)) }

    private func moveSliderToPlayhead() {
        guard sliderValue != playhead else { return }
        settingFromOutside = true
        gtk_range_set_value(hark_range(scale), playhead)
        settingFromOutside = false
    }

    /// Whether the width follows the duration (history rows) or fills the
    /// space given (the gallery's demo).
    public var widthFollowsDuration = false { didSet { fitToDuration() } }

    /// How wide the bars are drawn in an area `width` wide: the whole of it,
    /// or, in the history, as long as the message is.
    private func drawnWidth(_ width: Double) -> Double {
        widthFollowsDuration ? WaveformWidth.width(duration: duration, available: width) : width
    }

    /// The area always takes the row's width (so the row can shrink freely);
    /// the bars are drawn over `drawnWidth` of it, and the slider that takes
    /// the clicks and keys is kept to that part by its margin. A margin on an
    /// overlay's child never changes the overlay's size: this settles at once.
    private func fitToDuration() {
        let width = Double(gtk_widget_get_width(area))
        guard width > 0 else { return }
        let margin = Int32(max(0, width - drawnWidth(width)))
        guard gtk_widget_get_margin_end(scale) != margin, !fitPending else { return }
        // Not during the allocation this is called from: GTK would drop the
        // relayout it asks for. Right after it, in the same frame's idle.
        fitPending = true
        lifetime.idle { [weak self] in
            guard let self else { return false }
            self.fitPending = false
            let width = Double(gtk_widget_get_width(self.area))
            let margin = Int32(max(0, width - self.drawnWidth(width)))
            if width > 0, gtk_widget_get_margin_end(self.scale) != margin { gtk_widget_set_margin_end(self.scale, margin) }
            return false
        }
        redraw()
    }
    private var fitPending = false

    /// The slider, for focus and tests.
    public var slider: UnsafeMutablePointer<GtkWidget> { scale }

    /// What a screen reader says of the slider's value ("0:03 of 0:14"),
    /// not GTK's raw seconds ("3.1"); set only when its text changes.
    private var valueText: String?
    /// The whole seconds `valueText` says: the text is made again only when
    /// they change, not at each of the player's 20 positions a second.
    private var valueTextSeconds: (position: Int, duration: Int)?

    private func updateValueText() {
        let seconds = (position: DurationText.wholeSeconds(position), duration: DurationText.wholeSeconds(duration))
        if let shown = valueTextSeconds, shown == seconds { return }
        valueTextSeconds = seconds
        // TRANSLATORS: what a screen reader says of the waveform's slider, "0:03 of 0:14".
        let text = tr("{position} of {duration}", ["position": DurationText.clock(position), "duration": DurationText.clock(duration)])
        guard text != valueText else { return }
        valueText = text
        hark_accessible_set_value_text(UnsafeMutableRawPointer(scale), text)
    }

    private func valueChanged() {
        if !settingFromOutside { playhead = sliderValue }
        updateValueText()
        if movesPlayhead(to: playedFraction) { redraw() }
        guard !settingFromOutside else { return }
        if dragging { onPreview(position) } else { onSeek(position) }  // keys seek at once
    }

    private func redraw() {
        gtk_widget_queue_draw(area)
    }

    private var playedFraction: Double {
        let total = duration
        return total > 0 ? position / total : 0
    }

    /// Where the played part ends for `fraction` at `width`, to half a pixel.
    private func playedX(_ fraction: Double, width: Double) -> Double {
        (min(1, max(0, fraction)) * layout.extent(width: width) * 2).rounded() / 2
    }

    /// Whether the playhead at `fraction` is somewhere else than at the last draw.
    private func movesPlayhead(to fraction: Double) -> Bool {
        guard let drawnPlayedX else { return true }
        return playedX(fraction, width: drawnWidth(Double(gtk_widget_get_width(area)))) != drawnPlayedX
    }

    func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        if let load = pendingLevels {
            pendingLevels = nil
            fractions = mapping.fractions(load().rms)
        }
        // Right to left (as the slider over it then runs), the start is at
        // the right: the drawing is mirrored, and the slider's end margin
        // (a left one then) leaves the same part to it.
        ReadingDirection.of(area).orient(cairo, areaWidth: width)
        let width = drawnWidth(width)
        drawnPlayedX = playedX(playedFraction, width: width)
        cache.draw(cairo, width: width, height: height, scale: Double(gtk_widget_get_scale_factor(area)),
                   fractions: fractions, played: playedFraction, hover: hover, layout: layout,
                   colors: ThemeColors.waveform(of: area), style: style)
    }

    /// Whether setting the position to `seconds` would change what is drawn.
    func wouldMovePlayhead(to seconds: Double) -> Bool {
        duration > 0 ? movesPlayhead(to: seconds / duration) : true
    }
}
