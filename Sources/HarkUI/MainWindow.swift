import AudioEngine
import CAdwaita
import CGLib
import CGraphicsProbe
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Identity
import Localization
import MessageStore
import Subscriptions

/// The main window: a header bar (microphone, main menu), the message
/// history (or its empty state), progress strips, and the composer that
/// records; errors and undo arrive as toasts. Audio files dropped on the
/// window are imported.
@MainActor
final class MainWindow {
    /// Borrowed: the application owns its windows.
    let window: UnsafeMutablePointer<GtkWindow>
    /// Ends when GTK destroys the window: deferred work on its widgets stops.
    let lifetime: WidgetLifetime
    let toasts: UnsafeMutablePointer<GtkWidget>
    /// The sidebar beside the content, in a leaflet (see RoomLayout).
    let layout: RoomLayout
    /// "Signed out by the server", under the header bar.
    let banner = AccountBanner()
    /// The Matrix account, rooms and sending (nil without a store).
    private(set) var conversations: WindowConversations?
    let stack: UnsafeMutablePointer<GtkWidget>
    private(set) var history: HistoryView?
    private(set) var composer: ComposerView?
    private(set) var playback: PlaybackController?
    private(set) var importer: Importer?
    private(set) var exporter: Exporter?
    private(set) var microphones: MicrophoneMenu?
    let search = HistorySearch()
    let store: MessageStore?
    /// Deleted messages whose Undo toast is still up, oldest first.
    var pendingDeletions: [PendingDeletion] = []
    /// "Checking for interrupted recordings…" at start-up.
    let recoveryProgress = ProgressStrip()
    /// Puts a toast saying `text` over the history; tests wrap it to hear
    /// everything the window says.
    lazy var showToast: @MainActor (_ toast: OpaquePointer, _ text: String) -> Void = { [toasts] toast, _ in
        adw_toast_overlay_add_toast(OpaquePointer(toasts), toast)
    }
    static let autoplaySetting = "autoplay"
    /// How often the store is asked whether another process changed it.
    static let outsideChangeMilliseconds: UInt32 = 3_000
    var outsideChanges = 0
    /// What the window has said about damaged databases (see announceSalvage).
    var salvages = SalvageAnnouncements()
    private var outsideChangeWatch: Source?
    /// The store's transcription queue at work, when transcription is on.
    private(set) var transcription: TranscriptionService?
    /// "Transcribe Messages…", while open.
    var transcriptionDialog: TranscriptionDialog?
    /// Under the composer's draft: its transcript and "Send With Transcript".
    var draftTranscript: DraftTranscriptView?
    /// The window's observations of the model (playback, transcription) and the composer: they end with it.
    var subscriptions: [Subscription] = []
    /// The ring stays on the history's focused row while the keyboard is used.
    private(set) var focusRing: FocusRing?
    /// The media controls and the session kept awake (see MainWindow+Desktop).
    var desktop: DesktopIntegration?
    /// Quit asked (Ctrl+Q): a close ends the window even when Hark runs in the background.
    var isQuitting = false
    /// What plays, under the header bar (see MainWindow+NowPlaying).
    var nowPlaying: NowPlayingStrip?
    /// How long a problem stays up: long enough to read, and never so long
    /// that it holds every later toast back (its Details stay a click away).
    static let problemSeconds: UInt32 = 10

    /// `account`: the application's Matrix account (its session syncs and
    /// sends whether a window shows it or not); without one, the window's own.
    init(application: UnsafeMutablePointer<GtkApplication>, store: MessageStore?, storeProblem: String? = nil,
         account: AccountModel? = nil) {
        self.store = store
        let appWindow = adw_application_window_new(application)!
        window = UnsafeMutableRawPointer(appWindow).assumingMemoryBound(to: GtkWindow.self)
        lifetime = WidgetLifetime(of: Widget.widget(appWindow))
        hark_frame_sync_only_where_supported(window)
        gtk_window_set_title(window, AppInfo.name)
        gtk_window_set_default_size(window, 480, 640)
        gtk_widget_set_size_request(appWindow, 360, 360)

        // Toasts float over the history only: never over Record and its hint.
        toasts = adw_toast_overlay_new()!
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let header = adw_header_bar_new()!
        gtk_box_append(hark_box(content), header)
        gtk_box_append(hark_box(content), banner.widget)
        gtk_box_append(hark_box(content), search.bar)
        stack = gtk_stack_new()!
        gtk_stack_add_named(OpaquePointer(stack), Self.makeEmptyState(problem: storeProblem), "empty")
        gtk_stack_add_named(OpaquePointer(stack), Self.makeNoResultsState(), "no-results")
        adw_toast_overlay_set_child(OpaquePointer(toasts), stack)
        gtk_widget_set_vexpand(toasts, 1)
        gtk_box_append(hark_box(content), toasts)
        layout = RoomLayout(content: content, header: header)
        adw_application_window_set_content(hark_adw_application_window(appWindow), layout.leaflet)
        adw_header_bar_pack_end(OpaquePointer(header), Self.makeMainMenu(withMessages: store != nil))
        ShortcutsWindow.install(on: window)
        Actions.setAccels(application, "win.show-help-overlay", ["<Control>question"])

        guard let store else { return }
        let size = WindowSize(setting: store.setting(WindowSize.settingKey))
        gtk_window_set_default_size(window, Int32(size.width), Int32(size.height))
        if size.maximized { gtk_window_maximize(window) }
        let playback = PlaybackController(store: store)
        let history = HistoryView(store: store, playback: playback)
        let composer = ComposerView(store: store)
        let importProgress = ProgressStrip()
        let importer = Importer(store: store, progress: importProgress)
        let exportProgress = ProgressStrip()
        let exporter = Exporter(progress: exportProgress)
        self.exporter = exporter
        let microphones = MicrophoneMenu(window: UnsafeMutableRawPointer(appWindow), store: store)
        self.playback = playback
        self.history = history
        self.composer = composer
        self.importer = importer
        self.microphones = microphones
        adw_header_bar_pack_start(OpaquePointer(header), microphones.button)
        gtk_stack_add_named(OpaquePointer(stack), history.widget, "history")
        gtk_box_append(hark_box(content), recoveryProgress.widget)
        gtk_box_append(hark_box(content), importProgress.widget)
        gtk_box_append(hark_box(content), exportProgress.widget)
        gtk_box_append(hark_box(content), composer.progress.widget)
        gtk_box_append(hark_box(content), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        let composerClamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(OpaquePointer(composerClamp), HistoryView.maximumWidth)
        adw_clamp_set_tightening_threshold(OpaquePointer(composerClamp), HistoryView.maximumWidth * 3 / 4)
        adw_clamp_set_child(OpaquePointer(composerClamp), composer.widget)
        gtk_box_append(hark_box(content), composerClamp)

        subscriptions += [
            playback.changes.subscribe { [weak history] id in history?.apply(.playback(id)) },
            playback.rateChanges.subscribe { [weak history] _ in history?.apply(.playback(nil)) },
            playback.positions.subscribe { [weak history] id in history?.apply(.position(id)) },
            playback.problems.subscribe { [weak self] in self?.toast($0) },
            // Shown as missing at the first play that finds the file gone.
            playback.filesGone.subscribe { [weak self] id in
                if (try? self?.store?.markMissingIfGone(id)) == true { self?.history?.apply(.changed(id)) }
            },
            playback.ends.subscribe { [weak self] id in self?.playNext(after: id) },
        ]
        history.onCountChange = { [weak self] count in
            guard let self, let history = self.history else { return }
            let page = count > 0 || history.showsRecording ? "history" : (history.query == nil ? "empty" : "no-results")
            gtk_stack_set_visible_child_name(OpaquePointer(self.stack), page)
        }
        search.onQuery = { [weak history] in history?.search($0) }
        // Typing anywhere but in a text field searches, as in Files and Settings.
        search.captureKeys(from: Widget.widget(window))
        adw_header_bar_pack_end(OpaquePointer(header), search.toggle)
        history.actions.add(.delete) { [weak self] in self?.delete($0) }
        history.actions.add(.rename) { [weak self] in self?.askToRename($0) }
        history.actions.add(.export) { [weak self] in self?.askToExport($0) }
        history.actions.add(.copy) { [weak self] in self?.copy($0) }
        composer.parentWindow = window
        composer.source = { [weak microphones] in
            if let forced = ComposerView.sourceFromEnvironment { return (forced, nil) }
            return microphones?.source() ?? (.defaultMicrophone, nil)
        }
        composer.voiceProcessing = { [weak microphones] in microphones?.reducesNoise ?? false }
        composer.recordsSpeakerOutput = { [weak microphones] in
            ComposerView.sourceFromEnvironment == nil && microphones?.recordsSpeakerOutput == true
        }
        microphones.onDevicesChange = { [weak composer] in composer?.updateNotice() }
        // A microphone plugged in (or the default changed) while the window was
        // in the background: look again when it comes back, so the notice is true.
        Signal.connectPointer(UnsafeMutableRawPointer(appWindow), "notify::is-active") { [weak self] _ in
            guard let self, gtk_window_is_active(self.window) != 0 else { return }
            self.microphones?.refresh()
            self.takeInOutsideChanges()
        }
        // Changes another process makes (a `hark import` beside the window)
        // show up when the window comes to the front, or within a few seconds.
        outsideChanges = store.outsideChangeCounter()
        outsideChangeWatch = MainLoop.timeout(milliseconds: Self.outsideChangeMilliseconds) { [weak self] in
            self?.takeInOutsideChanges()
            return self != nil
        }
        Signal.connect(UnsafeMutableRawPointer(appWindow), "destroy") { [weak self] in
            self?.outsideChangeWatch?.remove()
            self?.outsideChangeWatch = nil
        }
        microphones.onChange = { [weak composer] in composer?.updateNotice() }
        let transcription = TranscriptionService(store: store)
        self.transcription = transcription
        Signal.connect(UnsafeMutableRawPointer(appWindow), "destroy") { [weak transcription] in transcription?.stop() }
        subscriptions.append(composer.takesSaved.subscribe { [weak history, weak transcription] in
            history?.apply(.added($0.id))
            transcription?.wake()
        })
        // TRANSLATORS: a toast, after a take being recorded was thrown away (it has an Undo button).
        composer.onDiscarded = { [weak self] in self?.delete($0, saying: tr("Recording discarded")) }
        composer.naming.onName = { [weak self] id, title in self?.rename(id, to: title) }
        connectDrafts(composer, playback: playback)
        connectDraftTranscript(composer)
        importer.onImported = { [weak self] message in
            self?.history?.apply(.reloaded(showing: message.id))
            self?.transcription?.wake()
            // TRANSLATORS: a toast, {title} is the new message's title.
            self?.toast(tr("“{title}” imported", ["title": message.title]))
        }
        importer.onError = { [weak self] in self?.toast($0, seconds: Self.problemSeconds) }
        exporter.onError = { [weak self] in self?.toast($0, seconds: Self.problemSeconds) }
        exporter.onExported = { [weak self] title, path in
            guard let self else { return }
            // TRANSLATORS: a toast, {file} is the name of the file written ("Dentist.ogg").
            self.toast(tr("“{title}” exported as {file}", ["title": title, "file": URL(fileURLWithPath: path).lastPathComponent]),
                       button: tr("Show in Files")) {
                FileManagerWindow.show(path)
            }
        }
        history.apply(.reloaded(showing: nil))
        transcription.wake()  // what an earlier session left queued

        // GTK gives the first focusable widget (the microphone menu) the
        // focus; Space would open that menu. With no focus, Space plays the
        // last message and Tab still walks into the window.
        var firstMap = true
        Signal.connect(UnsafeMutableRawPointer(appWindow), "map") { [weak self] in
            guard firstMap else { return }
            firstMap = false
            self?.lifetime.idle {
                if let window = self?.window { gtk_window_set_focus(window, nil) }
                return false
            }
        }
        addActions(to: UnsafeMutableRawPointer(appWindow), application: application)
        installTranscription()
        installTranscripts(on: UnsafeMutableRawPointer(appWindow))
        conversations = WindowConversations(window: self, store: store, layout: layout, banner: banner,
                                            application: application, account: account)
        installKeyboard()
        focusRing = FocusRing(window: window) { [weak history] focus in history?.holdsFocus(focus) ?? false }
        installDropTarget()
        installDesktop(application: application)
        installNowPlaying()
        // Closing (or quitting) while recording saves the recording first.
        Signal.connectReturning(UnsafeMutableRawPointer(appWindow), "close-request") { [weak self] in
            guard let self else { return false }
            self.rememberSize()
            self.importer?.cancelAll()
            self.exporter?.cancelAll()  // no half-written file stays in the user's folder
            guard let composer = self.composer, composer.isRecording else {
                self.playback?.stop()
                guard self.hidesOnClose else { return false }
                self.hide()
                return true
            }
            composer.finish { [weak self] in
                guard let self else { return }
                if self.hidesOnClose { self.hide() } else { gtk_window_destroy(self.window) }
            }
            return true
        }
    }

    func present() {
        gtk_window_present(window)
    }

    /// Reloads the history when another process changed the store.
    func takeInOutsideChanges() {
        guard let store, let history else { return }
        announceSalvage()  // first: another process's salvage means another database
        updateTranscriptionActions()
        let counter = store.outsideChangeCounter()
        if counter != outsideChanges {
            outsideChanges = counter
            history.apply(.storeChanged)
            transcription?.wake()  // queued by another process (`hark record`)
        }
    }

    /// Keeps the window's size (its size when not maximized, and whether it
    /// was) for the next start.
    func rememberSize() {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(window, &width, &height)
        guard width > 0, height > 0 else { return }
        let size = WindowSize(width: Int(width), height: Int(height), maximized: gtk_window_is_maximized(window) != 0)
        try? store?.setSetting(WindowSize.settingKey, size.setting)
    }

    /// Closes the window; a recording in progress is saved first.
    func close() {
        gtk_window_close(window)
    }

    /// The empty history's status page (its words change in a room).
    var emptyStatePage: UnsafeMutablePointer<GtkWidget>? {
        gtk_stack_get_child_by_name(OpaquePointer(stack), "empty")
    }

    /// The empty history's words for the recordings.
    func resetEmptyState() {
        guard store != nil, let page = emptyStatePage else { return }
        adw_status_page_set_title(OpaquePointer(page), Self.emptyTitle)
        adw_status_page_set_description(OpaquePointer(page), Self.emptyDescription)
    }

    static var emptyTitle: String { tr("No messages yet") }
    static var emptyDescription: String {
        tr("Record a message with the button below, or drop audio files here to import them.")
    }

    private func addActions(to map: UnsafeMutableRawPointer, application: UnsafeMutablePointer<GtkApplication>) {
        Actions.add(to: map, "record") { [weak self] in self?.composer?.toggleRecording() }
        // Escape cancels only while recording: otherwise it is for popovers.
        let cancelAction = Actions.add(to: map, "cancel-recording") { [weak self] in self?.composer?.cancel() }
        g_simple_action_set_enabled(cancelAction, 0)
        if let stateChanges = composer?.stateChanges {
            subscriptions.append(stateChanges.subscribe { [weak self] in
                guard let self, let composer = self.composer else { return }
                g_simple_action_set_enabled(cancelAction, composer.canCancel ? 1 : 0)
                self.history?.showsRecording = composer.isRecording
                // The speakers must not play into the microphone.
                self.playback?.isHeldOff = composer.isRecording
                if composer.isRecording { self.playback?.stop() }
            })
        }
        Actions.add(to: map, "pause-recording") { [weak self] in self?.composer?.togglePause() }
        Actions.add(to: map, "import") { [weak self] in self?.askToImport() }
        Actions.add(to: map, "search") { [weak self] in self?.search.open() }
        Actions.add(to: map, "undo") { [weak self] in self?.undoLastDeletion() }

        addPlaybackActions(to: map)
        addBackgroundAction(to: map)

        Actions.setAccels(application, "win.record", ["<Control>r"])
        Actions.setAccels(application, "win.cancel-recording", ["Escape"])
        Actions.setAccels(application, "win.import", ["<Control>i"])
        Actions.setAccels(application, "win.search", ["<Control>f"])
        Actions.setAccels(application, "win.undo", ["<Control>z"])
    }

    private static func makeMainMenu(withMessages: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
        if withMessages {
            let messages = g_menu_new()!
            g_menu_append(messages, tr("_Import Audio Files…"), "win.import")
            g_menu_append(messages, tr("_Play Next Message Automatically"), "win.autoplay")
            g_menu_append(messages, tr("_Skip Silence"), "win." + skipSilenceAction)
            g_menu_append(messages, tr("_Transcribe Messages…"), "win.transcription")
            let transcribeAll = g_menu_item_new(tr("_Transcribe All Messages"), "win." + transcribeAllAction)!
            g_menu_item_set_attribute_value(transcribeAll, "hidden-when", g_variant_new_string("action-disabled"))
            g_menu_append_item(messages, transcribeAll)
            g_object_unref(UnsafeMutableRawPointer(transcribeAll))
            NewConversation.addMenuItem(to: messages)
            g_menu_append(messages, tr("_Matrix Account…"), "win.matrix-account")
            // TRANSLATORS: a check item: with it on, closing the window keeps Hark receiving messages.
            g_menu_append(messages, tr("Run in _Background"), "win." + runInBackgroundAction)
            g_menu_append_section(menu, nil, UnsafeMutableRawPointer(messages).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(messages))
        }
        let general = g_menu_new()!
        g_menu_append(general, tr("_Keyboard Shortcuts"), "win.show-help-overlay")
        // No Quit here (GNOME's HIG): Ctrl+Q and the window's close button do it.
        g_menu_append(general, tr("_About Hark"), "app.about")
        g_menu_append_section(menu, nil, UnsafeMutableRawPointer(general).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(general))
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(menuButton), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(OpaquePointer(menuButton), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_menu_button_set_primary(OpaquePointer(menuButton), 1)
        gtk_widget_set_tooltip_text(menuButton, tr("Main Menu"))
        hark_accessible_set_label(UnsafeMutableRawPointer(menuButton), tr("Main Menu"))
        g_object_unref(UnsafeMutableRawPointer(menu))
        return menuButton
    }

    private static func makeNoResultsState() -> UnsafeMutablePointer<GtkWidget> {
        let status = adw_status_page_new()!
        adw_status_page_set_icon_name(OpaquePointer(status), "system-search-symbolic")
        adw_status_page_set_title(OpaquePointer(status), tr("No Messages Found"))
        // TRANSLATORS: the search found nothing. The quoted words are examples of days the search
        // understands: weekdays and months in this language's own names (as the calendar writes them),
        // but "today" and "yesterday" only in English, so give a weekday, a month or a short date.
        adw_status_page_set_description(OpaquePointer(status),
                                        tr("Try other words from a title, or a day such as “yesterday”, “monday” or “1 Dec”."))
        gtk_widget_set_vexpand(status, 1)
        return status
    }

    private static func makeEmptyState(problem: String?) -> UnsafeMutablePointer<GtkWidget> {
        let status = adw_status_page_new()!
        adw_status_page_set_icon_name(OpaquePointer(status), problem == nil ? "audio-input-microphone-symbolic" : "dialog-error-symbolic")
        adw_status_page_set_title(OpaquePointer(status), problem == nil ? emptyTitle : tr("Messages unavailable"))
        adw_status_page_set_description(OpaquePointer(status), problem.map { Markup.escape($0) } ?? emptyDescription)
        gtk_widget_set_vexpand(status, 1)
        gtk_widget_add_css_class(status, "hark-empty-history")
        return status
    }
}
