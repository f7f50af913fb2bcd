import AudioEngine
import CAdwaita
import CGLib
import CGtk
import Conversations
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Identity
import Localization
import MessageStore
import Subscriptions

/// The window's Matrix side: the account (sign in, sign out, signed out by
/// the server), the room sidebar, a room's history, recording into a room
/// (Stop sends), the rows' Send to…, Retry and Delete for Everyone, and
/// notifications of voice messages received while the window is not active.
/// The store is the model; this reads it again whenever the session says
/// something changed.
@MainActor
final class WindowConversations {
    unowned let window: MainWindow
    let account: AccountModel
    let sidebar = RoomSidebar()
    let banner: AccountBanner
    /// A narrow window's invitation, over the room (see WindowConversations+Narrow).
    let invitationBanner = InvitationBanner()
    /// A member's identity changed in the room shown (see IdentityBanner).
    let identityBanner = IdentityBanner()
    /// Invitations whose banner the user closed (they stay in the sidebar).
    var dismissedInvitations: Set<String> = []
    /// Why the server cannot be reached, while it cannot.
    private(set) var connectionProblem: String?
    let layout: RoomLayout
    /// The account dialog while it is open.
    private(set) var accountDialog: AccountDialog?
    /// New Conversation… (its action, its "+" in the sidebar, its dialog).
    let newConversation: NewConversation
    /// Set Up Encryption, on an encrypted room's empty page while encryption is not set up.
    private(set) lazy var encryptionSetup = EncryptionSetupView(account: account)
    /// The last "Send to…" dialog opened: kept, as its rows call back into it.
    private var sendToDialog: SendToDialog?
    /// "Sending … to …" toasts, by message, until the send ends.
    private var sendingToasts: [String: ObjectRef] = [:]
    /// Whether the window is the one the user is in (notifications are for when it is not).
    var isWindowActive: @MainActor () -> Bool
    /// Sends a notification through the application; tests record them instead.
    var notify: @MainActor (RoomNotification) -> Void
    /// A message a notification's Play asked for before its audio was here: it plays once downloaded.
    var playsOnceDownloaded: String?
    /// Its observations of the account, playback and the composer: they end with it.
    private var subscriptions: [Subscription] = []

    /// `account`: the application's, which outlives the window; without one
    /// the window makes its own, stopped when it closes.
    init(window: MainWindow, store: MessageStore, layout: RoomLayout, banner: AccountBanner,
         application: UnsafeMutablePointer<GtkApplication>, account shared: AccountModel? = nil) {
        self.window = window
        self.layout = layout
        self.banner = banner
        let ownAccount = shared == nil
        account = shared ?? AccountModel(store: store)
        let gtkWindow = window.window
        // Hidden (closed to the background) it is no window the user is in.
        isWindowActive = { gtk_window_is_active(gtkWindow) != 0 && gtk_widget_get_visible(Widget.widget(gtkWindow)) != 0 }
        let app = UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)
        notify = { $0.send(through: app) }
        newConversation = NewConversation(window: gtkWindow, account: account, sidebarHeader: layout.sidebarHeader,
                                          application: application)
        layout.setSidebar(sidebar.widget)
        gtk_box_insert_child_after(hark_box(layout.content), invitationBanner.widget, banner.widget)
        invitationBanner.onView = { [weak self] in self?.viewInvitation() }
        invitationBanner.onDismiss = { [weak self] in self?.dismissInvitations() }
        gtk_box_insert_child_after(hark_box(layout.content), identityBanner.widget, invitationBanner.widget)
        identityBanner.onAccept = { [weak self] in self?.acceptIdentityChange($0) }
        layout.onFoldChange = { [weak self] in self?.showTitle() }

        subscriptions += [
            account.stateChanges.subscribe { [weak self] _ in self?.accountChanged() },
            account.changes.subscribe { [weak self] in self?.handle($0) },
        ]
        banner.onAction = { [weak self] reason in
            switch reason {
            case .signedOutByServer: self?.openAccountDialog()
            case .keyringLocked: self?.restore()
            }
        }
        newConversation.open = { [weak self] in self?.openConversation($0) }
        sidebar.onSelect = { [weak self] in self?.show($0) }
        sidebar.onActivate = { [weak self] in self?.layout.showContent() }
        sidebar.onAccept = { [weak self] id in self?.answerInvitation(id, accept: true) }
        sidebar.onDecline = { [weak self] id in self?.answerInvitation(id, accept: false) }
        sidebar.onDeclineAll = { [weak self] ids in self?.confirmDeclineAll(ids) }
        connectHistory()
        addActions(application: application)
        if ownAccount {
            Signal.connect(UnsafeMutableRawPointer(gtkWindow), "destroy") { [weak self] in self?.account.stop() }
        }
        Signal.connectPointer(UnsafeMutableRawPointer(gtkWindow), "notify::is-active") { [weak self] _ in
            guard let self, self.isWindowActive() else { return }
            self.markShownRoomSeen()
        }
        accountChanged()
    }

    /// Reads the token from the keyring and starts the session (at start).
    func restore() {
        account.restore { [weak self] in self?.window.toast($0, seconds: MainWindow.problemSeconds) }
    }

    // MARK: The account

    func openAccountDialog() {
        if let accountDialog {
            accountDialog.present()
            return
        }
        let dialog = AccountDialog(over: window.window, account: account)
        accountDialog = dialog
        Signal.connect(UnsafeMutableRawPointer(dialog.window), "destroy") { [weak self, weak dialog] in
            if let self, self.accountDialog === dialog { self.accountDialog = nil }
        }
        dialog.present()
    }

    private func accountChanged() {
        let state = account.state
        layout.showsSidebar = account.showsRooms
        switch state {
        case .signedOutByServer: banner.show(.signedOutByServer)
        case .keyringLocked: banner.show(.keyringLocked)
        case .signedIn, .signedOut, .restoring: banner.show(nil)
        }
        window.history?.canSendToRooms = account.isSignedIn
        window.updateAutostart(account: account)
        accountDialog?.showState()
        reloadRooms()
    }

    private func handle(_ change: ConversationSession.Change) {
        // A download or send that ends after the window closed: its widgets are gone.
        guard window.lifetime.isAlive else { return }
        switch change {
        case .rooms:
            reloadRooms()
        case .messages(let received, _):
            window.history?.apply(.storeChanged)
            reloadRooms()
            notifyOf(received)
            markShownRoomSeen()
        case .sendState(let id):
            window.history?.apply(.changed(id))
            endSendingToast(of: id)
        case .downloaded(let id):
            window.history?.apply(.changed(id))
            if playsOnceDownloaded == id { play(messageID: id) }
            window.transcription?.wake()  // the store queued it, as it does a recording, when transcription is on
        case .downloadFailed(let id):
            window.history?.apply(.changed(id))
        case .connection(let problem):
            connectionProblem = problem
            if let title = sidebarTitle {
                adw_window_title_set_subtitle(OpaquePointer(title), problem == nil ? nil : tr("Offline"))
                gtk_widget_set_tooltip_text(title, problem)
            }
            showTitle()
        case .signedOutByServer:
            break  // the account's state says so (accountChanged)
        }
    }

    /// "Sending … to …" goes once the row says how the send ended (Sent, Not sent).
    private func endSendingToast(of id: String) {
        guard let toast = sendingToasts[id], (try? account.store.matrix.sendState(of: id)) != .sending else { return }
        sendingToasts[id] = nil
        adw_toast_dismiss(OpaquePointer(toast.pointer))
    }

    private var sidebarTitle: UnsafeMutablePointer<GtkWidget>? {
        adw_header_bar_get_title_widget(OpaquePointer(layout.sidebarHeader))
    }

    private func reloadRooms() {
        let rooms = account.showsRooms ? ((try? account.store.matrix.rooms()) ?? []) : []
        sidebar.canEncrypt = account.canEncrypt
        sidebar.reload(rooms: rooms)
        showTitle()
        updateComposer()
        fillShownRoom()  // a room just joined: its first sync says where its history goes on
    }

    // MARK: A room

    /// The room shown now, nil for the recordings.
    var shownRoom: StoredRoom? {
        guard case .room(let id) = window.history?.scope else { return nil }
        return try? account.store.matrix.room(id)
    }

    /// Shows the recordings or a room's history (from the sidebar, or a notification).
    func show(_ scope: HistoryScope) {
        guard let history = window.history else { return }
        if sidebar.selected != scope { sidebar.select(scope) }
        history.scope = scope
        showTitle()
        updateComposer()
        markShownRoomSeen()
        fillShownRoom()
    }

    /// A room's messages from before Hark joined come a page at a time
    /// (`/messages`): while the room shows fewer than a screenful, and when
    /// the list is scrolled to its top; never all at once.
    static let screenful = 20
    private var fetchingOlder: String?

    private func fetchOlderMessages(whileFewerThan minimum: Int? = nil) {
        guard let room = shownRoom, !room.historyComplete, room.previousBatch != nil, fetchingOlder == nil,
              let session = account.session, account.isSignedIn else { return }
        if let minimum, (window.history?.count ?? 0) >= minimum { return }
        fetchingOlder = room.id
        Task { [weak self] in
            let brought: Int?
            do throws(ConversationError) { brought = try await session.loadOlderMessages(in: room.id) } catch {
                self?.fetchingOlder = nil
                return  // offline: the next scroll to the top tries again
            }
            guard let self else { return }
            self.fetchingOlder = nil
            if brought != nil, minimum != nil { self.fetchOlderMessages(whileFewerThan: minimum) }
        }
    }

    private func fillShownRoom() {
        fetchOlderMessages(whileFewerThan: Self.screenful)
    }

    /// Opens a room and brings the window forward (a notification's click).
    func open(roomID: String) {
        guard (try? account.store.matrix.room(roomID))??.membership == .join else { return }
        show(.room(roomID))
        layout.showContent()
        window.present()
    }

    private func showTitle() {
        // Folded, the sidebar that says "Offline" is hidden: the content says it.
        let offline = connectionProblem != nil && account.isSignedIn && layout.isFolded
        if let room = shownRoom {
            layout.setTitle(room.displayName,
                            subtitle: WaitingElsewhere.subtitle(offline: offline, note: room.isEncrypted
                                ? Self.encryptedNote(canEncrypt: account.canEncrypt) : nil))
        } else {
            layout.setTitle(account.showsRooms ? RoomSidebar.recordingsTitle : AppInfo.name,
                            subtitle: WaitingElsewhere.subtitle(offline: offline, note: nil))
        }
        let wholeName = shownRoom.flatMap { $0.isNameCut ? $0.fullName : nil }
        gtk_widget_set_tooltip_text(layout.title, offline ? connectionProblem : wholeName)
        updateEmptyState()
        showWhatWaits()
        showIdentityChange()
    }

    /// Record records into the room shown; into an encrypted one only when Hark's encryption is set up.
    private func updateComposer() {
        guard let composer = window.composer else { return }
        let room = shownRoom
        composer.roomID = room?.id
        composer.unavailableReason = room?.isEncrypted == true && !account.canEncrypt
            ? tr("This room is end-to-end encrypted and Hark’s encryption is not set up, so Hark cannot record into it.")
                + " " + Self.encryptionSetUp
            : nil
    }

    /// The room on screen, in the window the user is in: its messages are seen.
    func markShownRoomSeen() {
        guard let room = shownRoom, room.unreadCount > 0, isWindowActive(), !layout.isShowingSidebarOnly,
              let session = account.session else { return }
        session.markRoomSeen(room.id)
    }

    private func answerInvitation(_ id: String, accept: Bool) {
        guard let session = account.session else { return }
        Task { [weak self] in
            do throws(ConversationError) {
                if accept { try await session.join(id) } else { try await session.leave(id) }
                if accept { self?.show(.room(id)) }
            } catch {
                self?.window.toast(error.description, seconds: MainWindow.problemSeconds)
            }
        }
    }

    // MARK: Messages

    private func connectHistory() {
        guard let history = window.history, let composer = window.composer, let playback = window.playback else { return }
        subscriptions.append(composer.takesSaved.subscribe { [weak self] message in
            if let roomID = message.roomID { self?.send(message, to: roomID) }
        })
        history.actions.add(.sendTo) { [weak self] in self?.askWhereToSend($0) }
        history.actions.add(.retry) { [weak self] in self?.retry($0) }
        history.actions.add(.deleteForEveryone) { [weak self] in self?.deleteForEveryone($0) }
        history.onReachTop = { [weak self] in self?.fetchOlderMessages() }
        // Playing a received message marks it heard.
        subscriptions.append(playback.changes.subscribe { [weak self, weak playback] id in
            guard let self, let playback, playback.isPlaying, playback.currentID == id,
                  (try? self.account.store.message(id))?.unread == true else { return }
            self.account.session?.markHeard(id)
        })
    }

    /// Queues `message` to be sent into `roomID` (refused for an encrypted
    /// room), with its transcript inside when "Send With Transcript" is on
    /// and it has one by now; whether it was queued.
    @discardableResult
    func send(_ message: Message, to roomID: String) -> Bool {
        guard let session = account.session else {
            window.toast(tr("“{title}” was saved but not sent: sign in to a Matrix account first.", ["title": message.title]),
                         seconds: MainWindow.problemSeconds)
            return false
        }
        defer { window.history?.apply(.changed(message.id)) }
        do throws(ConversationError) {
            let store = account.store
            let caption = store.sendsWithTranscript ? (try? store.transcriptToSend(of: message.id)) ?? nil : nil
            try session.send(message.id, to: roomID, caption: caption)
            // In the room it went to, it now stands where it was sent: last.
            if window.history?.scope == .room(roomID) { window.history?.apply(.reloaded(showing: message.id)) }
            return true
        } catch {
            window.toast(tr("“{title}” was not sent: {reason}", ["title": message.title, "reason": error.description]),
                         seconds: MainWindow.problemSeconds)
            return false
        }
    }

    private func askWhereToSend(_ message: Message) {
        let rooms = (try? account.store.matrix.rooms()) ?? []
        let dialog = SendToDialog(over: window.window, title: message.title, rooms: rooms,
                                  canEncrypt: account.canEncrypt) { [weak self] room in
            self?.trimmingTakes(message) { [weak self] message in
                guard let self, self.send(message, to: room.id) else { return }
                self.sendingToasts[message.id] = self.window.toast(tr("Sending “{title}” to {room}",
                                                                      ["title": message.title, "room": room.displayName]))
            }
        }
        sendToDialog = dialog
        dialog.present()
    }

    /// A deletion undone: the outbox, which passes over deleted messages, goes on with its sends.
    func restored(_ id: String) {
        account.session?.resumeSending()
    }

    /// Sends a failed message again, or for the first time one recorded into
    /// a room that was never sent there (discarded, then brought back).
    private func retry(_ message: Message) {
        if message.origin != .received, let roomID = message.roomID,
           (try? account.store.matrix.sends(of: message.id))?.isEmpty == true {
            send(message, to: roomID)
            return
        }
        guard let session = account.session else { return openAccountDialog() }
        do throws(ConversationError) { try session.retry(message.id) } catch {
            window.toast(error.description, seconds: MainWindow.problemSeconds)
        }
        window.history?.apply(.changed(message.id))
    }

    /// Redacts the message in its rooms, then deletes it here (with Undo, as any delete).
    private func deleteForEveryone(_ message: Message) {
        guard let session = account.session else { return openAccountDialog() }
        Task { [weak self] in
            do throws(ConversationError) {
                try await session.deleteForEveryone(message.id)
                self?.window.delete(message, saying: tr("“{title}” deleted for everyone", ["title": message.title]))
            } catch {
                self?.window.toast(tr("“{title}” could not be deleted for everyone: {reason}",
                                      ["title": message.title, "reason": error.description]),
                                   seconds: MainWindow.problemSeconds)
            }
        }
    }

    private func addActions(application: UnsafeMutablePointer<GtkApplication>) {
        Actions.add(to: UnsafeMutableRawPointer(window.window), "matrix-account") { [weak self] in self?.openAccountDialog() }
        addNotificationActions(application: application)
    }
}
