import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Levels
import MessageStore

/// One message in the history, the seed's voice-message view: play/pause
/// inside its progress ring, the seekable waveform, elapsed / total, the
/// title, a speed toggle and a menu. Rows are recycled by the list view:
/// `show` fills one with a message.
@MainActor
final class MessageRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let playButton: UnsafeMutablePointer<GtkWidget>
    private let ring = CircularProgressView(size: 44)
    private let waveform = WaveformView()
    private let title: UnsafeMutablePointer<GtkWidget>
    private let time: UnsafeMutablePointer<GtkWidget>
    private let speed: UnsafeMutablePointer<GtkWidget>
    private let missing: UnsafeMutablePointer<GtkWidget>
    private(set) var message: Message?
    private var rate = 1.0
    private static let rates = [1.0, 1.5, 2.0]

    var onDelete: @MainActor (Message) -> Void = { _ in }
    private let playback: PlaybackController
    private let store: MessageStore

    init(store: MessageStore, playback: PlaybackController) {
        self.store = store
        self.playback = playback
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        gtk_widget_add_css_class(widget, "hark-message")
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(widget, 6) }
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(widget, 12) }

        playButton = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        gtk_widget_add_css_class(playButton, "circular")
        gtk_widget_add_css_class(playButton, "flat")
        gtk_widget_set_halign(playButton, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(playButton, GTK_ALIGN_CENTER)
        let playArea = gtk_overlay_new()!
        gtk_overlay_set_child(hark_overlay(playArea), ring.widget)
        gtk_overlay_add_overlay(hark_overlay(playArea), playButton)
        gtk_widget_set_valign(playArea, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(widget), playArea)

        let middle = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_hexpand(middle, 1)
        title = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(title), 0)
        gtk_label_set_ellipsize(hark_label(title), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(title, "heading")
        gtk_box_append(hark_box(middle), title)
        gtk_box_append(hark_box(middle), waveform.widget)
        missing = gtk_label_new("The audio file of this message is missing")!
        gtk_widget_add_css_class(missing, "error")
        gtk_label_set_xalign(hark_label(missing), 0)
        gtk_box_append(hark_box(middle), missing)
        time = gtk_label_new("0:00")!
        gtk_label_set_xalign(hark_label(time), 0)
        gtk_widget_add_css_class(time, "caption")
        gtk_widget_add_css_class(time, "numeric")
        gtk_box_append(hark_box(middle), time)
        gtk_box_append(hark_box(widget), middle)

        speed = gtk_button_new_with_label("1×")!
        gtk_widget_add_css_class(speed, "flat")
        gtk_widget_set_valign(speed, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(speed, "Playback speed")
        gtk_box_append(hark_box(widget), speed)

        let delete = gtk_button_new_from_icon_name("user-trash-symbolic")!
        gtk_widget_add_css_class(delete, "flat")
        gtk_widget_set_valign(delete, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(delete, "Delete")
        hark_accessible_set_label(UnsafeMutableRawPointer(delete), "Delete")
        gtk_box_append(hark_box(widget), delete)

        Signal.connect(UnsafeMutableRawPointer(playButton), "clicked") { [weak self] in
            guard let self, let message = self.message else { return }
            self.playback.toggle(message, rate: self.rate)
        }
        Signal.connect(UnsafeMutableRawPointer(speed), "clicked") { [weak self] in
            guard let self, let message = self.message else { return }
            let next = Self.rates[((Self.rates.firstIndex(of: self.rate) ?? 0) + 1) % Self.rates.count]
            self.rate = next
            gtk_button_set_label(hark_button(self.speed), Self.rateText(next))
            self.playback.setRate(next, for: message.id)
        }
        Signal.connect(UnsafeMutableRawPointer(delete), "clicked") { [weak self] in
            guard let self, let message = self.message else { return }
            self.onDelete(message)
        }
        waveform.onPreview = { [weak self] seconds in
            guard let self, let message = self.message else { return }
            self.playback.seek(message.id, to: seconds, preview: true)
            self.updateTime(seconds)
        }
        waveform.onSeek = { [weak self] seconds in
            guard let self, let message = self.message else { return }
            self.playback.seek(message.id, to: seconds, preview: false)
            self.message?.playPosition = seconds
            self.updateTime(seconds)
        }
    }

    func show(_ message: Message) {
        self.message = message
        rate = 1
        gtk_button_set_label(hark_button(speed), Self.rateText(rate))
        gtk_label_set_text(hark_label(title), message.title)
        waveform.setLevels((try? store.levels(of: message.id)) ?? LevelTrack())
        waveform.duration = message.duration
        let isMissing = message.state == .missing
        gtk_widget_set_visible(missing, isMissing ? 1 : 0)
        gtk_widget_set_sensitive(playButton, isMissing ? 0 : 1)
        refresh()
    }

    /// Forgets the message: a recycled row acts on nothing until shown again.
    func clear() {
        message = nil
    }

    /// Follows the player: button, ring, playhead, time.
    func refresh() {
        guard let message else { return }
        let current = playback.currentID == message.id
        let position = current ? playback.position : message.playPosition
        let playing = current && playback.isPlaying
        gtk_button_set_icon_name(hark_button(playButton),
                                 playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        let name = playing ? "Pause" : "Play"
        gtk_widget_set_tooltip_text(playButton, name)
        hark_accessible_set_label(UnsafeMutableRawPointer(playButton), name)
        waveform.position = position
        ring.set(message.duration > 0 ? position / message.duration : 0)
        updateTime(position)
    }

    private func updateTime(_ position: Double) {
        guard let message else { return }
        gtk_label_set_text(hark_label(time), "\(TimeText.clock(position)) / \(TimeText.clock(message.duration))")
    }

    private static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() ? "\(Int(rate))×" : "\(rate)×"
    }
}
