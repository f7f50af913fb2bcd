import CAdwaita
import CGtk
import GLibSupport
import GtkSupport
import HarkModel
import Levels
import Localization
import MessageStore
import Subscriptions

/// A take recorded into a room, heard before it goes: its waveform (the seek
/// bar), Play/Pause, its length, what trimming cut, Discard and Send. It
/// plays through the app's one player, as any message does.
@MainActor
final class DraftView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let playButton: UnsafeMutablePointer<GtkWidget>
    let waveform = WaveformView()
    /// The handles that trim its start and end (see DraftView+Trim.swift).
    let handles: TrimHandles
    let length = SteadyText("0:00", styles: ["numeric"])
    /// "2 seconds of silence trimmed", or "Trimming…" while it is cut.
    let trimmed: UnsafeMutablePointer<GtkWidget>
    let discardButton: UnsafeMutablePointer<GtkWidget>
    let sendButton: UnsafeMutablePointer<GtkWidget>
    /// The take shown, nil when no draft is up.
    private(set) var message: Message?
    /// Its ends are being trimmed: Play and Send wait for the take as sent.
    private(set) var isTrimming = false
    let playback: PlaybackController
    private var subscriptions: [Subscription] = []

    var onSend: @MainActor () -> Void = {}
    var onDiscard: @MainActor () -> Void = {}

    init(playback: PlaybackController) {
        self.playback = playback
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_hexpand(widget, 1)
        playButton = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        discardButton = gtk_button_new_from_icon_name("user-trash-symbolic")!
        sendButton = gtk_button_new_from_icon_name("document-send-symbolic")!
        gtk_widget_add_css_class(sendButton, "suggested-action")
        for button in [playButton, discardButton, sendButton] {
            gtk_widget_add_css_class(button, "circular")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        }
        gtk_widget_set_hexpand(waveform.widget, 1)
        gtk_widget_set_size_request(waveform.widget, 40, 40)
        handles = TrimHandles(over: waveform)
        trimmed = gtk_label_new("")!
        gtk_widget_add_css_class(trimmed, "caption")
        gtk_widget_add_css_class(trimmed, "dim-label")
        gtk_box_append(hark_box(widget), playButton)
        gtk_box_append(hark_box(widget), waveform.widget)
        gtk_box_append(hark_box(widget), length.widget)
        gtk_box_append(hark_box(widget), trimmed)
        gtk_box_append(hark_box(widget), discardButton)
        gtk_box_append(hark_box(widget), sendButton)
        // TRANSLATORS: the draft's button that throws the take away (undoably).
        gtk_widget_set_tooltip_text(discardButton, tr("Discard (Esc)"))
        hark_accessible_set_label(UnsafeMutableRawPointer(discardButton), tr("Discard"))
        // TRANSLATORS: the draft's button that sends the take into the room.
        gtk_widget_set_tooltip_text(sendButton, tr("Send (Enter)"))
        hark_accessible_set_label(UnsafeMutableRawPointer(sendButton), tr("Send"))
        gtk_widget_set_visible(widget, 0)

        Signal.connect(UnsafeMutableRawPointer(playButton), "clicked") { [weak self] in
            guard let self, let message = self.message, !self.isTrimming else { return }
            self.playback.toggle(message)
        }
        Signal.connect(UnsafeMutableRawPointer(sendButton), "clicked") { [weak self] in
            guard let self, self.message != nil, !self.isTrimming else { return }
            self.onSend()
        }
        Signal.connect(UnsafeMutableRawPointer(discardButton), "clicked") { [weak self] in
            guard let self, self.message != nil else { return }
            self.onDiscard()
        }
        handles.onChange = { [weak self] _ in self?.trimMoved() }
        waveform.onPreview = { [weak self] seconds in self?.seek(seconds, preview: true) }
        waveform.onSeek = { [weak self] seconds in self?.seek(seconds, preview: false) }
        subscriptions = [
            playback.changes.subscribe { [weak self] id in if id == self?.message?.id { self?.follow() } },
            playback.positions.subscribe { [weak self] id in if id == self?.message?.id { self?.follow() } },
        ]
    }

    /// Shows `message` as the draft; `trimming` while its ends are cut. The
    /// handles keep `selection`, else `trim` (what the default trim keeps), else all.
    func show(_ message: Message, levels: LevelTrack, trimming: Bool, trim: TakeTrim? = nil, selection: TrimSelection? = nil) {
        self.message = message
        isTrimming = trimming
        showHandles(selection ?? trim.map(TrimSelection.init) ?? TrimSelection(duration: message.duration, kept: 0...message.duration))
        waveform.setLevels(levels)
        waveform.duration = message.duration
        waveform.setAccessibleName(RowDescription.positionName(message.title))
        length.set(DurationText.clock(message.duration))
        if trimming {
            gtk_label_set_text(hark_label(trimmed), tr("Trimming…"))
        } else if let trim, trim.cutsAnything {
            // TRANSLATORS: under a draft: {duration} is how much silence was cut from its ends, "3 seconds".
            gtk_label_set_text(hark_label(trimmed), tr("{duration} of silence trimmed",
                                                       ["duration": DurationText.spoken(trim.cutAtStart + trim.cutAtEnd)]))
        } else {
            gtk_label_set_text(hark_label(trimmed), "")
        }
        gtk_widget_set_visible(trimmed, gtk_label_get_text(hark_label(trimmed)).map { $0.pointee != 0 } == true ? 1 : 0)
        gtk_widget_set_sensitive(playButton, trimming ? 0 : 1)
        gtk_widget_set_sensitive(sendButton, trimming ? 0 : 1)
        gtk_widget_set_sensitive(waveform.widget, trimming ? 0 : 1)  // what is cut is settled
        gtk_widget_set_visible(widget, 1)
        follow()
        if !trimming { gtk_widget_grab_focus(sendButton) }  // Enter sends
    }

    /// No draft any more (sent or discarded).
    func clear() {
        if let message, playback.currentID == message.id { playback.stop() }
        if let message { playback.setBounds(message.id, nil) }
        message = nil
        isTrimming = false
        gtk_widget_set_visible(widget, 0)
    }

    private func seek(_ asked: Double, preview: Bool) {
        guard let message else { return }
        let seconds = min(handles.selection.end, max(handles.selection.start, asked))  // only what is sent plays
        playback.seek(message.id, to: seconds, preview: preview)
        length.set(DurationText.clock(seconds - handles.selection.start))
    }

    /// Follows the player: the button, the playhead, the clock.
    func follow() {
        guard let message else { return }
        let playing = playback.currentID == message.id && playback.isPlaying
        waveform.isPlaying = playing
        gtk_button_set_icon_name(hark_button(playButton),
                                 playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        gtk_widget_set_tooltip_text(playButton, playing ? tr("Pause") : tr("Play"))
        hark_accessible_set_label(UnsafeMutableRawPointer(playButton),
                                  RowDescription.playName(message.title, playing: playing))
        let position = playback.position(of: message)
        waveform.position = position
        let kept = handles.selection
        let moved = playing || (position > kept.start && position < kept.end)
        length.set(moved ? DurationText.clock(position - kept.start) : DurationText.clock(kept.length))
    }
}
