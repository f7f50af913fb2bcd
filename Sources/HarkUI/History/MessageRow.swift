import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Levels
import Localization
import MessageStore

/// One message in the history, the seed's voice-message view: play/pause
/// inside its progress ring, the seekable waveform, elapsed / total, the
/// title, a speed toggle and a menu. Rows are recycled by the list view:
/// `show` fills one with a message.
///
/// The row is one keyboard stop (the list item holding it takes the focus):
/// its controls take clicks and screen readers' actions but never the focus;
/// the keys on the focused row do their work (see MainWindow+Keyboard).
@MainActor
final class MessageRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let playButton: UnsafeMutablePointer<GtkWidget>
    let ring = CircularProgressView(size: 44)
    let waveform = WaveformView()
    /// The title, with the time of day and the duration ("5:15 PM · 0:19")
    /// beside it, or under it where the row is narrow.
    let titleLine = TitleLine()
    private var title: UnsafeMutablePointer<GtkWidget> { titleLine.title }
    private var when: UnsafeMutablePointer<GtkWidget> { titleLine.when }
    private let time = SteadyText("0:00", styles: ["caption", "numeric"])
    private let speed: UnsafeMutablePointer<GtkWidget>
    let missing: UnsafeMutablePointer<GtkWidget>
    private let missingDelete: UnsafeMutablePointer<GtkWidget>
    /// Above the title, for a received message: who sent it.
    let sender: UnsafeMutablePointer<GtkWidget>
    /// Beside the time, for a message sent into a room: "Sending…", "Sent", "Not sent".
    let sendStatus: UnsafeMutablePointer<GtkWidget>
    let retryButton: UnsafeMutablePointer<GtkWidget>
    /// Beside the time, for a message from a device its owner has not cross-signed.
    let unverifiedMark: UnsafeMutablePointer<GtkWidget>
    /// Signed in: the menu offers "Send to…".
    var canSend = false
    /// The history's actions, which the row's buttons and menu name (see HistoryActions).
    weak var actions: HistoryActions?
    /// Borrowed from the row's widget: its menu's Show Whole Transcript (see makeMenu).
    var transcriptToggle: OpaquePointer?
    let menuButton: UnsafeMutablePointer<GtkWidget>
    private(set) var message: Message?
    /// The time of day beside the title is this one's.
    private(set) var placedAt: Date?
    /// What Skip Silence saves, in whole seconds, as shown beside the duration (0: nothing shown).
    var shownSavedSeconds: Int?
    /// The menu's work waits for its popover to go; never past the row.
    let lifetime: WidgetLifetime

    let playback: PlaybackController
    let store: MessageStore
    /// Under the waveform: the transcript (see MessageRow+Transcript).
    let transcriptView = TranscriptView()
    var transcriptContext = TranscriptContext()

    init(store: MessageStore, playback: PlaybackController) {
        self.store = store
        self.playback = playback
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        lifetime = WidgetLifetime(of: widget)
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
        sender = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(sender), 0)
        gtk_label_set_ellipsize(hark_label(sender), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(sender, "caption-heading")
        gtk_widget_add_css_class(sender, "accent")
        gtk_widget_set_visible(sender, 0)
        gtk_box_append(hark_box(middle), sender)
        gtk_box_append(hark_box(middle), titleLine.widget)
        waveform.widthFollowsDuration = true
        gtk_box_append(hark_box(middle), waveform.widget)
        gtk_box_append(hark_box(middle), transcriptView.widget)
        missing = gtk_label_new(Self.missingText)!
        gtk_widget_add_css_class(missing, "error")
        gtk_label_set_xalign(hark_label(missing), 0)
        // Wrapped, so the row asks for no more width than any other row:
        // one line would widen the whole history (and the window) to fit it.
        gtk_label_set_wrap(hark_label(missing), 1)
        gtk_label_set_wrap_mode(hark_label(missing), PANGO_WRAP_WORD_CHAR)
        gtk_box_append(hark_box(middle), missing)
        let footer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_append(hark_box(footer), time.widget)
        unverifiedMark = gtk_image_new_from_icon_name("security-low-symbolic")!
        gtk_widget_add_css_class(unverifiedMark, "warning")
        gtk_widget_set_tooltip_text(unverifiedMark, RowDescription.unverifiedDevice)
        hark_accessible_set_label(UnsafeMutableRawPointer(unverifiedMark), RowDescription.unverifiedDevice)
        gtk_widget_set_visible(unverifiedMark, 0)
        gtk_box_append(hark_box(footer), unverifiedMark)
        sendStatus = gtk_label_new("")!
        gtk_widget_add_css_class(sendStatus, "caption")
        gtk_widget_set_visible(sendStatus, 0)
        gtk_box_append(hark_box(footer), sendStatus)
        retryButton = gtk_button_new_with_mnemonic(tr("_Retry"))!
        gtk_widget_add_css_class(retryButton, "flat")
        gtk_widget_add_css_class(retryButton, "caption")
        gtk_widget_set_tooltip_text(retryButton, tr("Send this message again"))
        gtk_widget_set_visible(retryButton, 0)
        gtk_box_append(hark_box(footer), retryButton)
        gtk_box_append(hark_box(middle), footer)
        gtk_box_append(hark_box(widget), middle)

        speed = gtk_button_new_with_label("1×")!
        gtk_widget_add_css_class(speed, "flat")
        gtk_widget_set_valign(speed, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(speed, tr("Playback speed, for every message"))
        // As wide as its widest text, so the row never shifts when the speed changes.
        var widest: Int32 = 0
        for rate in PlaybackController.rates {
            gtk_button_set_label(hark_button(speed), Self.rateText(rate))
            var natural: Int32 = 0
            gtk_widget_measure(speed, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
            widest = max(widest, natural)
        }
        gtk_widget_set_size_request(speed, widest, -1)
        gtk_button_set_label(hark_button(speed), Self.rateText(1))
        gtk_box_append(hark_box(widget), speed)

        missingDelete = gtk_button_new_with_mnemonic(tr("_Delete"))!
        ButtonNames.name(missingDelete)
        gtk_widget_add_css_class(missingDelete, "flat")
        gtk_widget_set_valign(missingDelete, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(missingDelete, tr("Delete this message"))
        gtk_box_append(hark_box(widget), missingDelete)
        menuButton = Self.makeMenuButton()
        gtk_box_append(hark_box(widget), menuButton)
        waveform.leaveFocusToRow()
        for control in [playButton, speed, missingDelete, retryButton, menuButton] + Widget.descendants(of: menuButton) {
            gtk_widget_set_focusable(control, 0)
            gtk_widget_set_focus_on_click(control, 0)
        }
        // Nothing inside takes the focus, so a click or an arrow key focuses the row's list item.
        gtk_widget_set_can_focus(widget, 0)
        MenuButton.setMenuOnOpen(menuButton, { [weak self] in self?.makeMenu() ?? Self.noMenu() }) { [weak self] in
            self?.menuCreated($0)
        }
        // The buttons name the history's actions; their target is the message
        // shown (none yet: an empty id, which acts on nothing).
        for (button, action) in [(playButton, HistoryActions.Name.play), (missingDelete, .delete), (retryButton, .retry)] {
            gtk_actionable_set_action_target_value(OpaquePointer(button), g_variant_new_string(""))
            gtk_actionable_set_action_name(OpaquePointer(button), action.detailed)
        }
        Signal.connect(UnsafeMutableRawPointer(speed), "clicked") { [weak self] in
            guard let self, self.message != nil else { return }
            self.playback.cycleRate()
        }
        // Drag the title or the time out of the window to send the message as
        // a file (the waveform keeps its drag for seeking).
        for handle in [title, time.widget] {
            FileTransfer.dragFile(from: handle) { [weak self] in
                guard let self, let message = self.message, message.state != .missing else { return nil }
                return try? self.store.outgoingCopy(message.id)
            }
        }
        waveform.onPreview = { [weak self] seconds in
            guard let self, let message = self.message else { return }
            self.playback.seek(message.id, to: seconds, preview: true)
            self.updateTime(seconds)
        }
        waveform.onSeek = { [weak self] seconds in
            guard let self, let message = self.message else { return }
            self.playback.seek(message.id, to: seconds, preview: false)
            self.updateTime(seconds)
        }
        setUpTranscript()
    }

    /// `time`: when the list places it (in a room it was sent into, when it
    /// was sent), else when it was recorded.
    func show(_ message: Message, at time: Date? = nil) {
        if self.message?.id != message.id { target(message.id) }
        self.message = message
        let placed = time ?? message.createdAt
        placedAt = placed
        shownPlayName = nil
        shownRate = nil
        titleLine.text = message.title
        waveform.setAccessibleName(RowDescription.positionName(message.title))
        hark_accessible_set_label(UnsafeMutableRawPointer(menuButton), RowDescription.menuName(message.title))
        shownSavedSeconds = nil
        showWhen()
        waveform.setLevels { [store] in (try? store.levels(of: message.id)) ?? LevelTrack() }
        waveform.duration = message.duration
        let isMissing = message.state == .missing
        showMissing(message)
        showConversation(message)
        gtk_widget_set_visible(speed, isMissing ? 0 : 1)
        // An actionable button takes its sensitivity from its action: a
        // message without audio names none, so the button stays off.
        gtk_actionable_set_action_name(OpaquePointer(playButton), isMissing ? nil : HistoryActions.Name.play.detailed)
        gtk_widget_set_sensitive(playButton, isMissing ? 0 : 1)
        gtk_widget_set_sensitive(waveform.widget, isMissing ? 0 : 1)
        // A message not decrypted yet has no waveform to show, not even an empty one.
        gtk_widget_set_visible(waveform.widget, message.undecrypted == nil ? 1 : 0)
        showTranscript()
        refresh()
    }

    /// A message without its audio: one still downloading says so; one whose
    /// download failed for good says why, and one whose file is gone says
    /// that, both with Delete beside them.
    /// An encrypted one not decrypted (yet) says why, in the same place.
    private func showMissing(_ message: Message) {
        let isMissing = message.state == .missing
        gtk_widget_set_visible(missing, isMissing ? 1 : 0)
        gtk_widget_set_visible(missingDelete, isMissing && !message.isAwaitingDownload ? 1 : 0)
        let style: String
        if let undecrypted = message.undecrypted {
            gtk_label_set_text(hark_label(missing), undecrypted.sentence)
            style = undecrypted.standing == .waiting ? "dim-label" : undecrypted.standing == .refused ? "error" : "warning"
        } else if message.isAwaitingDownload {
            gtk_label_set_text(hark_label(missing), Self.downloadingText)
            style = "dim-label"
        } else {
            gtk_label_set_text(hark_label(missing), message.downloadFailure.map(Self.downloadFailedText) ?? Self.missingText)
            style = "error"
        }
        for other in ["dim-label", "error", "warning"] where other != style { gtk_widget_remove_css_class(missing, other) }
        gtk_widget_add_css_class(missing, style)
    }

    static var missingText: String { tr("The audio file of this message is missing") }
    static var downloadingText: String { tr("Downloading…") }
    /// `reason`: why, "it is larger than 100 MB, the most Hark downloads".
    static func downloadFailedText(_ reason: String) -> String {
        tr("The audio could not be downloaded: {reason}.", ["reason": reason])
    }

    /// How the message's sends stand (nil: never sent).
    var sendState: SendState?

    /// How a recording was made, for the row's tooltip; nil for imports.
    static func processingNote(_ processed: Bool?) -> String? {
        switch processed {
        case true?: return tr("Recorded with background noise reduced")
        case false?: return tr("Recorded without noise reduction")
        case nil: return nil
        }
    }

    /// Acts on `message` again, which it shows as it was before the `clear()`
    /// that just came: GTK bound its item again only because its position moved.
    func actOnAgain(_ message: Message) {
        target(message.id)
        self.message = message
    }

    /// Forgets the message: a recycled row acts on nothing until shown again.
    func clear() {
        if message != nil { target("") }
        message = nil
    }

    /// The message the row's buttons act on (see HistoryActions).
    private func target(_ id: String) {
        for button in [playButton, missingDelete, retryButton] {
            gtk_actionable_set_action_target_value(OpaquePointer(button), g_variant_new_string(id))
        }
    }

    /// Follows the player: button, speed, and the position.
    func refresh() {
        guard let message else { return }
        let playing = playback.currentID == message.id && playback.isPlaying
        waveform.isPlaying = playing
        let name = RowDescription.playName(message.title, playing: playing)
        if shownPlayName != name {
            shownPlayName = name
            gtk_button_set_icon_name(hark_button(playButton),
                                     playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
            gtk_widget_set_tooltip_text(playButton, playing ? tr("Pause") : tr("Play"))
            hark_accessible_set_label(UnsafeMutableRawPointer(playButton), name)
        }
        let rate = Self.rateText(playback.rate)
        if shownRate != rate {
            shownRate = rate
            gtk_button_set_label(hark_button(speed), rate)
            // TRANSLATORS: the speed button as a screen reader names it, "Playback speed 1.5×".
            hark_accessible_set_label(UnsafeMutableRawPointer(speed), tr("Playback speed {rate}", ["rate": rate]))
        }
        showWhen()
        followPosition(force: true)
    }
    private var shownPlayName: String?
    private var shownRate: String?

    /// Follows the playing position, 20 times a second while playing: the
    /// playhead, ring and clock change only when what they show would, so
    /// a long message's row is drawn only as often as its playhead moves a
    /// pixel, and nothing else in the window is. (Asked first because even
    /// an invisible step of the slider's value makes GTK lay the row out.)
    func followPosition(force: Bool = false) {
        guard let message else { return }
        followTranscript()
        let position = playback.position(of: message)
        let fraction = message.duration > 0 ? position / message.duration : 0
        guard force || waveform.wouldMovePlayhead(to: position) || ring.wouldChange(to: fraction)
                || DurationText.wholeSeconds(position) != shownSecond else { return }
        waveform.position = position
        ring.set(fraction)
        updateTime(position)
    }

    /// The clock under the waveform as shown ("0:03 / 0:14").
    private(set) var shownTime: String?
    /// The whole second it shows: the clock's text is made only when it changes.
    private var shownSecond: Int?

    private func timeText(_ position: Double) -> String {
        guard let message else { return "" }
        // TRANSLATORS: under a message's waveform: where it plays and how long it lasts, "0:03 / 0:14".
        return tr("{position} / {duration}", ["position": DurationText.clock(position), "duration": DurationText.clock(message.duration)])
    }

    private func updateTime(_ position: Double) {
        let second = DurationText.wholeSeconds(position)
        // The text (a translation filled in) is made only when its numbers change.
        guard shownTime == nil || second != shownSecond || message?.duration != shownDuration else { return }
        let text = timeText(position)
        shownTime = text
        shownSecond = second
        shownDuration = message?.duration
        time.set(text)
    }
    private var shownDuration: Double?

    /// Seeks the message `seconds` forward (or back, when negative).
    func skip(by seconds: Double) {
        guard let message, message.state != .missing else { return }
        let current = playback.position(of: message)
        let target = min(max(current + seconds, 0), message.duration)
        playback.seek(message.id, to: target, preview: false)
        waveform.position = target
        updateTime(target)
    }

    /// The list item widget that holds this row (and takes its focus).
    var listItemWidget: UnsafeMutablePointer<GtkWidget>? {
        gtk_widget_get_parent(widget).flatMap { gtk_widget_get_parent($0) }
    }

    /// Whether keyboard focus is on this row's list item (or, for a
    /// moment, inside the row).
    func hasFocus(_ focus: UnsafeMutablePointer<GtkWidget>) -> Bool {
        focus == widget || gtk_widget_is_ancestor(focus, widget) != 0 || focus == listItemWidget
    }

}
