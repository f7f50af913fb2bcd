import AudioEngine
import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import Levels
import Localization
import MessageStore
import StoreAudio
import Subscriptions

/// The bar at the bottom of the window that records: a round Record button
/// with the level pulse behind it; while recording, the live waveform, the
/// elapsed time, the ring of elapsed against the maximum (red near the end),
/// and Pause/Resume, Cancel and Stop. A recording's row exists in the store
/// from its first moment and holds its lock, so a crash loses nothing.
/// Above them, a notice in words when the microphone is very quiet, clips,
/// or is no microphone at all (the default input is the speakers' monitor).
@MainActor
final class ComposerView {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The controls' row, under the notice.
    let row: UnsafeMutablePointer<GtkWidget>
    /// What is wrong with the input, when something is; hidden otherwise.
    let notice: UnsafeMutablePointer<GtkWidget>
    /// The recording's input, as last reported by the recorder.
    private(set) var inputCondition: InputCondition = .fine
    /// What went wrong with the last recording (no microphone, cut short…),
    /// shown in the notice, where the user looks, until the next one starts.
    private(set) var problem: String?
    let store: MessageStore
    let recordButton: UnsafeMutablePointer<GtkWidget>
    let recordIcon: UnsafeMutablePointer<GtkWidget>
    let pauseButton: UnsafeMutablePointer<GtkWidget>
    let pauseIcon: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    let recordingBox: UnsafeMutablePointer<GtkWidget>
    /// The recording's clock ("0:42", "Paused · 0:42").
    let clock = SteadyText("0:00", styles: ["numeric"])
    let hint: UnsafeMutablePointer<GtkWidget>
    let holdHint: UnsafeMutablePointer<GtkWidget>
    let hold = HoldToRecord()
    /// Right after Stop: the new message's title, offered for typing.
    let naming = TakeNaming()
    let pulse = LevelMeterView(kind: .pulse, size: 64)
    let live = LiveWaveformView()
    let ring = CircularProgressView(size: 32)
    /// The levels as shown: one per interval, though they arrive in pairs.
    let levels = PacedLevels(intervalMilliseconds: LevelTrack.standardIntervalMilliseconds)
    /// The whole second the recording clock shows, and whether as paused.
    var clockShown: (second: Int, paused: Bool)?
    /// The take under way: its message in the store, its lock, its recorder.
    private var take: StoreRecording?
    var recorder: Recorder? { take?.recorder }
    /// The message of the take under way.
    var recordingID: String? { take?.message.id }
    private var whenEnded: [@MainActor () -> Void] = []
    /// Saving after Stop: the finalising strip is up until the file is closed.
    private var finalising = false

    /// Shows "Saving the recording…" while the file is finalised.
    let progress = ProgressStrip()
    /// Dialogs (Cancel's question) open over this window.
    var parentWindow: UnsafeMutablePointer<GtkWindow>?
    /// The hint beside Record, when nothing is being recorded.
    static var hintText: String { tr("Click Record (Ctrl+R), or hold it while you speak") }
    /// A hold released sooner than this (seconds of sound) keeps nothing.
    static let shortestHeldMessage = 0.3
    /// Cancel's question, while it is up.
    private var discardQuestion: UnsafeMutablePointer<GtkWindow>?
    /// Cancel asks first when more than this many seconds would be lost.
    var confirmDiscardAfter: Double = 3

    /// Recordings stop by themselves here (and are kept).
    var maximumDuration: Double = 30 * 60
    /// The source: nil for the default microphone; tests and the
    /// `HARK_RECORD_SOURCE` variable may give a GStreamer description.
    static let sourceFromEnvironment = ProcessInfo.processInfo.environment["HARK_RECORD_SOURCE"].map { RecorderSource.pipeline($0) }
    /// The source; the window sets it from the microphone menu. A message
    /// (the chosen input is gone) is shown when recording starts.
    var source: @MainActor () -> (source: RecorderSource, fallback: String?) = {
        (ComposerView.sourceFromEnvironment ?? .defaultMicrophone, nil)
    }
    /// Whether the next recording cleans up the voice (the microphone menu's
    /// "Reduce Background Noise"; it needs `webrtcdsp`).
    var voiceProcessing: @MainActor () -> Bool = { VoiceProcessing.isAvailable }
    /// Whether recording now would capture the speakers' output, not a voice.
    var recordsSpeakerOutput: @MainActor () -> Bool = { false }
    /// A take saved: the history shows it, the transcription service wakes,
    /// a room sends it, each on its own.
    let takesSaved = Observers<Message>()
    /// A take thrown away (Cancel, Esc, dragged off Record), saved so that it
    /// can be undone: the window deletes it with an Undo toast.
    var onDiscarded: @MainActor (Message) -> Void = { _ in }
    /// Recording started, paused, resumed, stopped or ended (the window's
    /// actions and playback, the transcription helper's start).
    let stateChanges = Observers<Void>()

    /// The room a take is recorded into (sent once saved), nil for the recordings.
    var roomID: String?
    /// Why Record is unavailable here (an encrypted room), nil when it is not.
    var unavailableReason: String? {
        didSet { if unavailableReason != oldValue { updateControls() } }
    }

    /// In a room: the take just stopped, heard before it is sent (once the
    /// window gave the player, `attach(playback:)`).
    var draft: DraftView?
    /// Let go after a hold: the take is sent once saved, as in messengers.
    private var sendsWhenSaved = false
    /// Record in a draft: the draft (and its handles) the take under way goes on from.
    var continuing: (message: Message, selection: TrimSelection)?
    /// The draft and the part recorded on, while they are joined into one take.
    var joining: (draft: String, part: String)?
    /// A draft thrown away: the window deletes it with an Undo that brings
    /// it back (`restoreDraft`).
    var onDraftDiscarded: @MainActor (Message) -> Void = { _ in }

    var isRecording: Bool { recorder != nil }
    /// The discard question, while it is up.
    var question: UnsafeMutablePointer<GtkWindow>? { discardQuestion }

    /// False once the window (and these controls) are gone.
    private let lifetime: WidgetLifetime

    init(store: MessageStore) {
        self.store = store
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        lifetime = WidgetLifetime(of: widget)
        gtk_widget_add_css_class(widget, "hark-composer")
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start,
                     gtk_widget_set_margin_end] { side(widget, 8) }
        notice = gtk_label_new("")!
        gtk_label_set_wrap(hark_label(notice), 1)
        gtk_label_set_xalign(hark_label(notice), 0)
        gtk_widget_add_css_class(notice, "warning")
        gtk_widget_set_visible(notice, 0)
        gtk_box_append(hark_box(widget), notice)
        row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_box_append(hark_box(widget), row)

        (recordButton, recordIcon) = PressButton.iconButton("media-record-symbolic")
        gtk_widget_add_css_class(recordButton, "circular")
        gtk_widget_add_css_class(recordButton, "suggested-action")
        gtk_widget_set_size_request(recordButton, 44, 44)
        gtk_widget_set_halign(recordButton, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(recordButton, GTK_ALIGN_CENTER)
        let recordArea = gtk_overlay_new()!
        gtk_overlay_set_child(hark_overlay(recordArea), pulse.widget)
        gtk_overlay_add_overlay(hark_overlay(recordArea), recordButton)
        gtk_box_append(hark_box(row), recordArea)

        hint = gtk_label_new(Self.hintText)!
        gtk_label_set_wrap(hark_label(hint), 1)
        gtk_widget_add_css_class(hint, "dim-label")
        gtk_widget_set_hexpand(hint, 1)
        gtk_label_set_xalign(hark_label(hint), 0)
        gtk_box_append(hark_box(row), hint)
        gtk_box_append(hark_box(row), naming.widget)

        recordingBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_hexpand(recordingBox, 1)
        gtk_widget_set_hexpand(live.widget, 1)
        // Narrow enough that the recording controls fit a 360 px window.
        gtk_widget_set_size_request(live.widget, 40, 40)
        // While Record is held, what releasing does, beside the button it is
        // about; the live waveform parts it from the clock, which says
        // "Starting…" at first ("Release to save Starting…" read as one).
        holdHint = gtk_label_new("")!
        gtk_widget_add_css_class(holdHint, "caption")
        gtk_box_append(hark_box(recordingBox), holdHint)
        gtk_box_append(hark_box(recordingBox), live.widget)
        gtk_box_append(hark_box(recordingBox), clock.widget)
        gtk_widget_set_valign(ring.widget, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(recordingBox), ring.widget)
        (pauseButton, pauseIcon) = PressButton.iconButton("media-playback-pause-symbolic")
        cancelButton = gtk_button_new_from_icon_name("process-stop-symbolic")!
        for button in [pauseButton, cancelButton] {
            gtk_widget_add_css_class(button, "circular")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
            gtk_box_append(hark_box(recordingBox), button)
        }
        gtk_box_append(hark_box(row), recordingBox)

        // Record, Stop, Pause and Resume act at the press: the take starts
        // and ends where the user pressed (see PressButton).
        PressButton.onActivate(recordButton) { [weak self] in self?.toggleRecording() }
        hold.attach(to: recordButton, watchedFrom: row)
        hold.isIdle = { [weak self] in self?.isRecording == false }
        hold.onPress = { [weak self] in self?.toggleRecording() }
        hold.onHold = { [weak self] in self?.showHold(away: false) }
        hold.onAway = { [weak self] away in self?.showHold(away: away) }
        hold.onRelease = { [weak self] away in
            guard let self, let recorder = self.recorder, !self.finalising else { return }
            // Let go before any sound arrived: a long click, not a message.
            if recorder.elapsed < Self.shortestHeldMessage { recorder.cancel() } else if away { self.discard() } else {
                self.sendsWhenSaved = true
                self.stop()
            }
        }
        PressButton.onPress(pauseButton, watchedFrom: row) { [weak self] in self?.togglePause() }
        Signal.connect(UnsafeMutableRawPointer(cancelButton), "clicked") { [weak self] in self?.cancel() }
        naming.onChange = { [weak self] in self?.updateControls() }
        levels.show = { [weak self] reading in self?.show(reading) }
        updateControls()
    }

    /// Record when idle, Stop (and save) when recording.
    func toggleRecording() {
        if recorder != nil { stop() } else if !finalising, unavailableReason == nil, joining == nil, draft?.isTrimming != true {
            holdDraftWhileRecordingOn()  // Record in a draft goes on with the same take
            start()
            if recorder == nil { giveDraftBack() }  // it could not start: the draft is as it was
        }
    }

    /// Stops and saves; the strip shows until the file is finalised.
    func stop() {
        guard let recorder, !finalising else { return }
        finalising = true
        progress.show(tr("Saving the recording…"))
        stateChanges.send()
        recorder.stop()
    }

    func togglePause() {
        guard let recorder else { return }
        if recorder.state == .paused { recorder.resume() } else { recorder.pause() }
    }

    /// Throws the recording away (the file and its row), asking first when
    /// more than a few seconds would be lost.
    func cancel() {
        if recorder == nil, hasDraft { return discardDraft() }
        // Once Stop was pressed the take is being saved: too late to throw away.
        guard let recorder, !finalising, discardQuestion == nil else { return }
        guard recorder.elapsed > confirmDiscardAfter else { return discard() }
        // The recording holds still while the question is up, so what it
        // says would be lost is what would be lost.
        let pausedForQuestion = recorder.state == .recording
        if pausedForQuestion { recorder.pause() }
        showClock(elapsed: recorder.elapsed)
        let shown = Double(clockShown?.second ?? DurationText.wholeSeconds(recorder.elapsed))
        let question = MessageDialogs.confirmDiscard(over: parentWindow, seconds: shown) { [weak self, weak recorder] in
            // Still the same recording, still going (it may have been stopped meanwhile).
            if let self, let recorder, self.recorder === recorder, !self.finalising { self.discard() }
        }
        discardQuestion = question
        Signal.connect(UnsafeMutableRawPointer(question), "destroy") { [weak self, weak recorder] in
            // Gone with the window: so are the controls a resumed take would update.
            guard let self, self.lifetime.isAlive else { return }
            self.discardQuestion = nil
            // Kept: recording goes on where it was.
            if pausedForQuestion, let recorder, self.recorder === recorder, !self.finalising, recorder.state == .paused {
                recorder.resume()
            }
        }
    }

    /// Throws the take away, undoably: it is saved as usual and handed to
    /// `onDiscarded`, which deletes it with an Undo toast, so a take thrown
    /// away by a slip of the pointer or a key can still be kept.
    private func discard() {
        guard let recorder, !finalising else { return }
        // Nothing heard yet (Esc at once): nothing to keep or to undo.
        guard recorder.elapsed > 0 else { return recorder.cancel() }
        finalising = true
        discarding = true
        stateChanges.send()
        recorder.stop()
    }
    private var discarding = false

    /// Whether Cancel (and Esc) can throw the recording away now.
    var canCancel: Bool { recorder != nil && !finalising || hasDraft }

    /// Stops and saves a recording in progress, then calls `completion`
    /// (at once when nothing is recording): quitting never loses a take.
    func finish(then completion: @escaping @MainActor () -> Void) {
        guard recorder != nil else { return completion() }
        whenEnded.append(completion)
        stop()
    }

    private func start() {
        naming.dismiss()  // carrying on keeps the last take's title
        problem = nil
        let processing = voiceProcessing() && VoiceProcessing.isAvailable
        let (source, fallback) = source()
        let take: StoreRecording
        do {
            take = try StoreRecording(store: store, roomID: roomID, source: source, maximumDuration: maximumDuration,
                                      voiceProcessing: processing)
        } catch {
            switch error {
            case .store(let error): report(tr("Cannot start a recording: {reason}", ["reason": "\(error)"]))
            case .locked: report(tr("Cannot start a recording: it is locked by another process"))
            }
            return
        }
        if let fallback { report(fallback) }
        self.take = take
        levels.reset()
        live.clear()
        ring.set(0)
        clockShown = nil
        clock.set(tr("Starting…"))
        do {
            try take.start(onEvent: { [weak self] event in self?.handle(event) },
                           onEnd: { [weak self] outcome in self?.handle(outcome) })
        } catch {
            end()
            report(error.description)
            return
        }
        updateControls()
    }

    private func handle(_ event: RecorderEvent) {
        switch event {
        case .level(let rms, _, let elapsed):
            levels.arrive(PacedLevels.Reading(rms: rms, elapsed: elapsed))
        case .input(let condition):
            inputCondition = condition
            updateNotice()
        case .paused, .resumed, .started:
            updateControls()
        case .finished, .failed, .cancelled:
            break  // the take's outcome, once the store did its part
        }
    }

    private func handle(_ outcome: StoreRecording.Outcome) {
        switch outcome {
        case .saved(let recording):
            if let take, let saved = try? store.message(take.message.id) {
                if discarding {
                    onDiscarded(saved)
                } else if let continuing, whenEnded.isEmpty {
                    self.continuing = nil
                    join(saved, after: continuing, thenSend: sendsWhenSaved)
                } else if saved.roomID != nil, draft != nil {
                    // A hold let go sends (trimmed), Stop leads to the draft; saved as the
                    // window closes, the take stays unsent in its room (which offers Send).
                    if sendsWhenSaved { sendTrimmed(saved) } else if whenEnded.isEmpty { showDraft(saved) }
                } else {
                    takesSaved.send(saved)
                }
                // A take of one's own, kept, with the window staying: name it now (or not).
                if !discarding, roomID == nil, whenEnded.isEmpty { naming.offer(saved) }
            }
            if let interruption = recording.interruption {
                report(Self.explain(interruption, saved: recording.duration))
            }
            end()
        case .unfinished(let recording, let error):
            // The audio is in its file (a full disk refuses the database's
            // write, not what was already written): say so, not "lost".
            report(Self.explainUnfinished(seconds: recording.duration, interruption: recording.interruption, error: error))
            end()
        case .failed(let error):
            end()
            report(error.description)
        case .cancelled:
            end()
        }
    }

    /// The take is over (its row saved, or gone with its file): the controls rest.
    private func end() {
        take = nil
        finalising = false
        discarding = false
        sendsWhenSaved = false
        inputCondition = .fine
        progress.hide()
        hold.reset()
        if let discardQuestion { gtk_window_close(discardQuestion) }  // the recording it asked about is over
        levels.reset()
        pulse.rest()
        giveDraftBack()  // the part recorded on came to nothing, or was thrown away
        updateControls()
        let completions = whenEnded
        whenEnded = []
        completions.forEach { $0() }
    }

    /// Says what went wrong, in the notice.
    func report(_ text: String) {
        problem = text
        updateNotice()
    }
}
