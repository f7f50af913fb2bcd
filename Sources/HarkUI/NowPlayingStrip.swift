import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import HarkModel
import Localization
import MessageStore
import Subscriptions

/// The strip under the header bar while a message of a list is loaded (playing or
/// paused), in whatever room or search the window shows, as Telegram's and
/// Signal's: its title, who sent it, where it stands, Play/Pause, and Stop
/// and Close; the title goes to the message. It reads the player (and the
/// messages, for a rename) through their subscriptions, as the rows and
/// the media controls do.
@MainActor
final class NowPlayingStrip {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The title and sender: a click goes to the message.
    let goButton: UnsafeMutablePointer<GtkWidget>
    /// Play or Pause; Stop and Close.
    let playButton, closeButton: UnsafeMutablePointer<GtkWidget>
    /// The title, who sent it, and where it stands ("0:12 / 0:30").
    let titleLabel, senderLabel, timeLabel: UnsafeMutablePointer<GtkWidget>
    private let playback: PlaybackController
    private let store: MessageStore
    /// The message shown, as last read from the store.
    private var message: Message?
    private var shownTime: String?
    private var shownPlaying: Bool?
    private var subscriptions: [Subscription] = []
    /// Goes to the message loaded (its list, its row).
    var onGo: @MainActor () -> Void = {}
    /// The strip is shown (pixels > 0, its height) or hidden (< 0), not yet laid out.
    var onHeightChange: @MainActor (_ pixels: Double) -> Void = { _ in }

    init(playback: PlaybackController, store: MessageStore, messageChanges: Observers<HistoryChange>) {
        self.playback = playback
        self.store = store
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        hark_accessible_set_role(UnsafeMutableRawPointer(widget), GTK_ACCESSIBLE_ROLE_GROUP)
        gtk_widget_add_css_class(widget, "hark-now-playing")
        // TRANSLATORS: the strip under the header bar showing the message loaded in the player, as a screen reader names it.
        hark_accessible_set_label(UnsafeMutableRawPointer(widget), tr("Now Playing"))

        goButton = gtk_button_new()!
        gtk_widget_add_css_class(goButton, "flat")
        gtk_widget_set_hexpand(goButton, 1)
        let lines = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        titleLabel = gtk_label_new(nil)!
        gtk_widget_add_css_class(titleLabel, "heading")
        senderLabel = gtk_label_new(nil)!
        gtk_widget_add_css_class(senderLabel, "caption")
        for label in [titleLabel, senderLabel] {
            gtk_label_set_xalign(hark_label(label), 0)
            gtk_label_set_ellipsize(hark_label(label), PANGO_ELLIPSIZE_END)
            gtk_box_append(hark_box(lines), label)
        }
        gtk_button_set_child(hark_button(goButton), lines)
        gtk_box_append(hark_box(widget), goButton)

        timeLabel = gtk_label_new(nil)!
        gtk_widget_add_css_class(timeLabel, "numeric")
        gtk_widget_add_css_class(timeLabel, "caption")
        gtk_box_append(hark_box(widget), timeLabel)

        playButton = gtk_button_new_from_icon_name("media-playback-start-symbolic")!
        closeButton = gtk_button_new_from_icon_name("window-close-symbolic")!
        // TRANSLATORS: the button that stops the message playing and hides the strip showing it.
        let closeName = tr("Stop and Close")
        gtk_widget_set_tooltip_text(closeButton, closeName)
        hark_accessible_set_label(UnsafeMutableRawPointer(closeButton), closeName)
        for button in [playButton, closeButton] {
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_add_css_class(button, "circular")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
            gtk_box_append(hark_box(widget), button)
        }
        gtk_widget_set_visible(widget, 0)

        Signal.connect(UnsafeMutableRawPointer(goButton), "clicked") { [weak self] in self?.onGo() }
        Signal.connect(UnsafeMutableRawPointer(playButton), "clicked") { [weak self] in
            guard let self, let message = self.message else { return }
            self.playback.toggle(message)
        }
        Signal.connect(UnsafeMutableRawPointer(closeButton), "clicked") { [weak self] in self?.playback.stop() }
        subscriptions = [
            playback.changes.subscribe { [weak self] _ in self?.read() },
            playback.positions.subscribe { [weak self] _ in self?.showTime() },
            playback.rateChanges.subscribe { [weak self] _ in self?.showTime() },
            messageChanges.subscribe { [weak self] _ in self?.read() },
        ]
    }

    /// Reads the message loaded again (another one, a rename, its end). One
    /// of no list (the composer's draft, with its own controls) has no strip:
    /// it has no row to go to.
    private func read() {
        message = playback.scope == nil ? nil : playback.currentID.flatMap { try? store.message($0) }
        defer { show(message != nil) }
        guard let message else { return }
        gtk_label_set_text(hark_label(titleLabel), message.title)
        let sender = store.matrix.senderName(of: message) ?? tr("You")
        // The sender's name as received, never markup (a label's text is not).
        gtk_label_set_text(hark_label(senderLabel), sender)
        gtk_widget_set_tooltip_text(goButton, message.title)
        // TRANSLATORS: the strip's button that shows the message playing in its list, as a screen reader names it.
        ButtonNames.name(goButton, tr("Go to “{title}”", ["title": message.title]))
        hark_accessible_set_description(UnsafeMutableRawPointer(goButton), sender)
        shownPlaying = nil
        showTime()
    }

    /// Shows or hides the strip, telling `onHeightChange` first how far the
    /// content under it moves (down while shown, back up when hidden).
    private func show(_ shows: Bool) {
        guard shows != (gtk_widget_get_visible(widget) != 0) else { return }
        if shows { gtk_widget_set_visible(widget, 1) }
        // Its whole height (padding and border too) at the width it has or
        // will have: the box over the history's, whose width it takes.
        var natural: Int32 = 0
        if let parent = gtk_widget_get_parent(widget) {
            gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width(parent), nil, &natural, nil, nil)
        }
        if !shows { gtk_widget_set_visible(widget, 0) }
        onHeightChange(Double(shows ? natural : -natural))
    }

    /// The position, and Play or Pause as the player stands.
    private func showTime() {
        guard let message else { return }
        let time = DurationText.clock(playback.position(of: message)) + " / " + DurationText.clock(message.duration)
        if time != shownTime {
            shownTime = time
            gtk_label_set_text(hark_label(timeLabel), time)
        }
        let playing = playback.isPlaying
        guard playing != shownPlaying else { return }
        shownPlaying = playing
        gtk_button_set_icon_name(hark_button(playButton), playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        gtk_widget_set_tooltip_text(playButton, playing ? tr("Pause") : tr("Play"))
        // Named apart from the rows' "Play {title}": the group says what plays.
        // TRANSLATORS: the now-playing strip's button, as a screen reader names it, while a message plays (then paused).
        hark_accessible_set_label(UnsafeMutableRawPointer(playButton), playing ? tr("Pause Playback") : tr("Resume Playback"))
    }
}
