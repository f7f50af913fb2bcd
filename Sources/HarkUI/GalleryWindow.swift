import CAdwaita
import CGLib
import CGtk
import Drawing
import Foundation
import GLibSupport
import GtkSupport
import Levels
import Localization

/// `hark gallery`: every widget in every style, fed with moving sample data,
/// for review by eye. A switch in the header bar flips light and dark.
@MainActor
public final class GalleryWindow {
    public let window: UnsafeMutablePointer<GtkWindow>
    private var views: [AnyObject] = []
    private var ticker: Source?

    public init(application: UnsafeMutablePointer<GtkApplication>, moving: Bool = true) {
        let appWindow = adw_application_window_new(application)!
        window = UnsafeMutableRawPointer(appWindow).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_title(window, tr("Hark Gallery"))
        gtk_window_set_default_size(window, 560, 720)

        let header = adw_header_bar_new()!
        let dark = gtk_switch_new()!
        gtk_widget_set_tooltip_text(dark, tr("Dark style"))
        hark_accessible_set_label(UnsafeMutableRawPointer(dark), tr("Dark style"))
        Signal.connectPointer(UnsafeMutableRawPointer(dark), "notify::active") { [dark] _ in
            let on = gtk_switch_get_active(OpaquePointer(dark)) != 0
            adw_style_manager_set_color_scheme(adw_style_manager_get_default(),
                                               on ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT)
        }
        adw_header_bar_pack_end(OpaquePointer(header), dark)

        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(column, 18)
        }
        let duration = 20.0
        let levels = Self.sampleSpeech(seconds: duration)
        var waveforms: [WaveformView] = []
        for style in WaveformStyle.allCases {
            let view = WaveformView()
            view.style = style
            view.setLevels(levels)
            view.duration = duration
            waveforms.append(view)
            views.append(view)
            append(column, tr("Message waveform ({style})", ["style": style.rawValue]), view.widget)
        }
        // What the first waveform reports, so that its seeking can be watched.
        let report = gtk_label_new(tr("Drag the waveform to seek"))!
        gtk_label_set_xalign(hark_label(report), 0)
        gtk_box_append(hark_box(column), report)
        let clock = { (seconds: Double) in String(format: "%d:%04.1f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60)) }
        waveforms[0].onPreview = { gtk_label_set_text(hark_label(report), tr("Previewing {time}", ["time": clock($0)])) }
        waveforms[0].onSeek = { gtk_label_set_text(hark_label(report), tr("Seeked to {time}", ["time": clock($0)])) }
        let live = LiveWaveformView()
        append(column, tr("Live waveform"), live.widget)
        let rings = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 24)!
        let percent = CircularProgressView(size: 64)
        percent.label = CircularProgress.percentLabel
        let time = CircularProgressView(size: 64)
        time.label = { String(format: "0:%02d", Int($0 * 60)) }
        let plain = CircularProgressView(size: 40)
        for ring in [percent, time, plain] { gtk_box_append(hark_box(rings), ring.widget) }
        append(column, tr("Circular progress"), rings)
        // Still, it draws once: a bar animating at the display's rate on a busy
        // machine kept GTK from ever registering the window with AT-SPI.
        let bar = IndeterminateBarView(animated: moving)
        bar.start()
        append(column, tr("Indeterminate bar"), bar.widget)
        let meters = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 24)!
        let pulse = LevelMeterView(kind: .pulse, size: 72)
        let lines = LevelMeterView(kind: .threeLines, size: 72)
        gtk_box_append(hark_box(meters), pulse.widget)
        gtk_box_append(hark_box(meters), lines.widget)
        append(column, tr("Level meters"), meters)
        views += [live, percent, time, plain, bar, pulse, lines]

        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scroller), column)
        gtk_widget_set_vexpand(scroller, 1)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(hark_box(content), header)
        gtk_box_append(hark_box(content), scroller)
        adw_application_window_set_content(hark_adw_application_window(appWindow), content)

        // Moving sample data: playback, a recording's levels, progress.
        for step in 0..<60 { live.append(decibels: Self.sampleLevel(step)) }
        percent.set(0.42)
        guard moving else { return }
        pulse.levelInterval = 0.1
        var step = 0
        ticker = MainLoop.timeout(milliseconds: 100) {
            step += 1
            for view in waveforms { view.position = Double(step % 200) / 10 }
            let level = Self.sampleLevel(step)
            live.append(decibels: level)
            pulse.level = level
            lines.level = level
            time.set(Double(step % 600) / 600)
            time.warning = time.progress > 0.8
            plain.set(Double(step % 50) / 50)
            if step % 30 == 1 { percent.animate(from: 0, to: 1, duration: 2.8) }
            return true
        }
        Signal.connect(UnsafeMutableRawPointer(appWindow), "destroy") { [weak self] in
            self?.ticker?.remove()
            self?.ticker = nil
        }
    }

    public func present() { gtk_window_present(window) }

    private func append(_ column: UnsafeMutablePointer<GtkWidget>, _ caption: String, _ widget: UnsafeMutablePointer<GtkWidget>) {
        let label = gtk_label_new(caption)!
        gtk_widget_add_css_class(label, "hark-gallery-caption")
        gtk_label_set_xalign(hark_label(label), 0)
        gtk_box_append(hark_box(column), label)
        gtk_box_append(hark_box(column), widget)
    }

    /// Speech-like loudness: words of varying strength with pauses.
    static func sampleSpeech(seconds: Double) -> LevelTrack {
        var track = LevelTrack()
        for index in 0..<Int(seconds * 20) {
            track.append(rms: sampleLevel(index), peak: sampleLevel(index) + 6)
        }
        return track
    }

    static func sampleLevel(_ index: Int) -> Double {
        let t = Double(index) / 20
        let word = max(0, sin(t * 2.1) * sin(t * 5.3 + 1) + 0.25 * sin(t * 17))
        let pause = (index / 40) % 4 == 3 ? 0.0 : 1.0
        return word * pause > 0.02 ? -42 + 34 * min(1, word) : -70
    }
}
