import CAdwaita
import CCairo
import CGtk
import Drawing
import GLibSupport
import GtkSupport
import Levels
import Localization

/// The draft's two trim handles over its waveform: what lies outside them
/// is dimmed, and is not sent. A handle is dragged with the pointer (a press
/// near it takes it; elsewhere the waveform seeks as before), or focused
/// (Tab) and moved with Left/Right a tenth of a second at a time; a screen
/// reader meets each as a slider, "Start of message" and "End of message",
/// with its time as the value. The maths is `TrimSelection`'s.
@MainActor
final class TrimHandles {
    /// The handles' focusable widgets (drawn by `shade`; they hold the focus ring).
    let startHandle: UnsafeMutablePointer<GtkWidget>
    let endHandle: UnsafeMutablePointer<GtkWidget>
    private(set) var selection = TrimSelection(duration: 0, kept: 0...0)
    /// A handle moved (by the user): the length shown and what is sent follow.
    var onChange: @MainActor (TrimSelection) -> Void = { _ in }

    private let waveform: WaveformView
    /// Draws the dimmed ends and the handles' bars over the waveform.
    private let shade: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    /// The handle being dragged, and where it was when the drag began.
    private var dragged: (edge: TrimSelection.Edge, from: Double)?
    private var placePending = false

    /// The width of a handle's widget (its focus ring), and how near a press must be to take it.
    static let handleWidth: Int32 = 12
    static let reach = 16.0

    init(over waveform: WaveformView) {
        self.waveform = waveform
        shade = gtk_drawing_area_new()!
        lifetime = WidgetLifetime(of: shade)
        gtk_widget_set_can_target(shade, 0)
        gtk_overlay_add_overlay(hark_overlay(waveform.widget), shade)
        startHandle = Self.makeHandle()
        endHandle = Self.makeHandle()
        // TRANSLATORS: a screen reader's name for the draft's handle that trims its beginning.
        hark_accessible_set_label(UnsafeMutableRawPointer(startHandle), tr("Start of message"))
        // TRANSLATORS: a screen reader's name for the draft's handle that trims its end.
        hark_accessible_set_label(UnsafeMutableRawPointer(endHandle), tr("End of message"))
        for (handle, edge) in [(startHandle, TrimSelection.Edge.start), (endHandle, .end)] {
            gtk_overlay_add_overlay(hark_overlay(waveform.widget), handle)
            let keys = gtk_event_controller_key_new()!
            Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _, state in
                self?.key(keyval, state: state, on: edge) ?? false
            }
            gtk_widget_add_controller(handle, keys)
        }
        DrawingArea.setDraw(hark_drawing_area(shade)) { [weak self] cairo, width, height in
            self?.draw(cairo, width: Double(width), height: Double(height))
        }
        Signal.connectResize(UnsafeMutableRawPointer(shade)) { [weak self] _, _ in self?.placeSoon() }

        // Before the seek slider sees the press: one near a handle is the handle's.
        let drag = gtk_gesture_drag_new()!
        gtk_event_controller_set_propagation_phase(drag, GTK_PHASE_CAPTURE)
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-begin") { [weak self] x, _ in
            guard let self else { return }
            guard let edge = self.edge(near: x) else {
                gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_DENIED)
                return
            }
            gtk_gesture_set_state(drag, GTK_EVENT_SEQUENCE_CLAIMED)
            self.dragged = (edge, self.selection.seconds(of: edge))
            gtk_widget_grab_focus(edge == .start ? self.startHandle : self.endHandle)
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-update") { [weak self] dx, _ in
            guard let self, let dragged = self.dragged else { return }
            let extent = self.extent
            guard extent > 0 else { return }
            let along = ReadingDirection.of(self.shade) == .leftToRight ? dx : -dx
            self.move(dragged.edge, to: dragged.from + along / extent * self.selection.duration)
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-end") { [weak self] _, _ in self?.dragged = nil }
        gtk_widget_add_controller(waveform.widget, drag)
    }

    private static func makeHandle() -> UnsafeMutablePointer<GtkWidget> {
        let handle = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        hark_accessible_set_role(UnsafeMutableRawPointer(handle), GTK_ACCESSIBLE_ROLE_SLIDER)
        gtk_widget_add_css_class(handle, "hark-trim-handle")
        gtk_widget_set_focusable(handle, 1)
        gtk_widget_set_can_target(handle, 0)  // the drag over the waveform takes the pointer
        gtk_widget_set_size_request(handle, handleWidth, -1)
        gtk_widget_set_halign(handle, GTK_ALIGN_START)
        gtk_widget_set_valign(handle, GTK_ALIGN_FILL)
        return handle
    }

    /// Shows `selection` (a new draft, or one given back): the handles go where it says.
    func set(_ selection: TrimSelection) {
        self.selection = selection
        dragged = nil
        updated()
    }

    private func move(_ edge: TrimSelection.Edge, to seconds: Double) {
        let before = selection
        selection.move(edge, to: seconds)
        guard selection != before else { return }
        updated()
        onChange(selection)
    }

    private func key(_ keyval: UInt32, state: UInt32, on edge: TrimSelection.Edge) -> Bool {
        let significant = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue | GDK_SHIFT_MASK.rawValue
        guard state & significant == 0 else { return false }
        let key = Int32(keyval)
        let rightward: Bool
        switch key {
        case GDK_KEY_Left, GDK_KEY_KP_Left: rightward = false
        case GDK_KEY_Right, GDK_KEY_KP_Right: rightward = true
        default: return false
        }
        // The arrow moves the handle the way it points (right to left, ← is later).
        let later = rightward == (ReadingDirection.of(shade) == .leftToRight)
        let before = selection
        selection.step(edge, by: later ? 1 : -1)
        if selection != before {
            updated()
            onChange(selection)
        }
        return true
    }

    /// The handle a press at `x` (in the waveform's coordinates) takes: the nearer one within reach.
    private func edge(near x: Double) -> TrimSelection.Edge? {
        guard selection.duration > 0 else { return nil }
        let width = Double(gtk_widget_get_width(shade))
        let along = ReadingDirection.of(shade) == .leftToRight ? x : width - x
        let distances = [TrimSelection.Edge.start, .end].map { ($0, abs(selection.along(selection.seconds(of: $0), extent: extent) - along)) }
        guard let nearest = distances.min(by: { $0.1 < $1.1 }), nearest.1 <= Self.reach else { return nil }
        return nearest.0
    }

    /// How wide the whole take is drawn (the waveform's bars fill the area).
    private var extent: Double {
        waveform.layout.extent(width: Double(gtk_widget_get_width(waveform.area)))
    }

    private func updated() {
        for (handle, edge) in [(startHandle, TrimSelection.Edge.start), (endHandle, .end)] {
            let range = selection.allowed(edge)
            let seconds = selection.seconds(of: edge)
            hark_accessible_set_range(UnsafeMutableRawPointer(handle), range.lowerBound, range.upperBound, seconds)
            hark_accessible_set_value_text(UnsafeMutableRawPointer(handle), Self.valueText(seconds))
        }
        place()
    }

    /// What a screen reader says of a handle: its time to the tenth of a second, as its keys move it.
    static func valueText(_ seconds: Double) -> String {
        // TRANSLATORS: a trim handle's place for a screen reader, in seconds with a tenth ("2.3 s").
        tr("{seconds} s", ["seconds": LocaleNumbers.decimal((seconds * 10).rounded() / 10)])
    }

    /// Not during an allocation (GTK would drop the relayout): right after it.
    private func placeSoon() {
        guard !placePending else { return }
        placePending = true
        lifetime.idle { [weak self] in
            self?.placePending = false
            self?.place()
            return false
        }
    }

    /// Puts each handle's widget over its place (the start margin is the leading one, either way).
    private func place() {
        let width = Double(gtk_widget_get_width(shade))
        for (handle, edge) in [(startHandle, TrimSelection.Edge.start), (endHandle, .end)] {
            let centre = selection.along(selection.seconds(of: edge), extent: extent)
            let margin = Int32(max(0, min(width - Double(Self.handleWidth), centre - Double(Self.handleWidth) / 2)).rounded())
            if gtk_widget_get_margin_start(handle) != margin { gtk_widget_set_margin_start(handle, margin) }
        }
        redraw()
    }

    private func redraw() {
        gtk_widget_queue_draw(shade)
    }

    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        guard selection.duration > 0 else { return }
        ReadingDirection.of(shade).orient(cairo, areaWidth: width)
        let extent = self.extent
        let start = selection.along(selection.start, extent: extent), end = selection.along(selection.end, extent: extent)
        // What is not sent: under the background, half seen.
        var background = GdkRGBA()
        if gtk_style_context_lookup_color(gtk_widget_get_style_context(shade), "window_bg_color", &background) == 0 {
            background = GdkRGBA(red: 1, green: 1, blue: 1, alpha: 1)
        }
        cairo_set_source_rgba(cairo, Double(background.red), Double(background.green), Double(background.blue), 0.7)
        cairo_rectangle(cairo, 0, 0, start, height)
        cairo_rectangle(cairo, end, 0, max(0, width - end), height)
        cairo_fill(cairo)
        // The handles: a bar each, in the accent colour, with a grip.
        ThemeColors.accent(of: shade).set(on: cairo)
        for x in [start, end] {
            cairo_rectangle(cairo, min(max(0, x - 1.5), width - 3), 0, 3, height)
            cairo_rectangle(cairo, min(max(0, x - 4), width - 8), height / 2 - 8, 8, 16)
        }
        cairo_fill(cairo)
    }
}
