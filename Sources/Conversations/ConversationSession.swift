import Encryption
import Foundation
import Localization
import Matrix
import Subscriptions
import MessageStore

/// The signed-in account at work: the outbox sending, the `/sync` long-poll
/// receiving, received audio downloading. One per signed-in client; all on
/// GLib's main loop, never blocking it. The store is the model: views read
/// it again when told of a change.
@MainActor
public final class ConversationSession {
    public enum Change: Sendable, Equatable {
        case rooms
        /// Messages arrived (oldest first) or were redacted by their senders.
        case messages(received: [Message], removed: [String])
        /// A message's send state changed (sent, failed, retrying).
        case sendState(messageID: String)
        /// A received message's audio arrived and was analysed.
        case downloaded(messageID: String)
        /// A received message's audio cannot be downloaded (the message says why).
        case downloadFailed(messageID: String)
        /// The server could not be reached (nil: it can again).
        case connection(problem: String?)
        /// The server revoked the token: sign in again (nothing in the store is lost).
        case signedOutByServer
    }

    public let client: MatrixClient
    public let store: MessageStore
    /// End-to-end encryption, when the engine is there: encrypted rooms are
    /// read and written through it; without it Hark refuses to send there.
    public var encryption: RoomEncryption? {
        didSet {
            sender.encryption = encryption
            // Whose identity changed is in the store: the rooms say it.
            encryption?.onIdentityChange = { [weak self] _ in self?.changes.send(.rooms) }
        }
    }
    public var userID: String { client.session?.userID ?? "" }
    /// Every change, to every subscriber, on the main thread.
    public let changes = Observers<Change>()

    private let sender: OutboxSender
    private let fetcher: MediaFetcher
    private let policy: RetryPolicy
    let clock: () -> Date
    private let outboxWaker = Waker()
    /// Ends the sync's pause after a failure early: the server answered the outbox.
    private let reconnectWaker = Waker()
    private var outboxTask: Task<Void, Never>?
    private(set) var syncTask: Task<Void, Never>?
    private var fetchTask: Task<Void, Never>?
    private var fetchAgain = false
    public private(set) var connectionProblem: String?

    /// Where the encryption's key is kept; nil: no encryption (encrypted rooms stay closed).
    let secrets: SecretStore?
    var encryptionTried = false
    var settingUpEncryption: Task<Void, Never>?
    /// Why encrypted rooms are closed, when they are.
    public internal(set) var encryptionUnavailable: RoomEncryption.Unavailable?

    /// `clock`: the time the outbox goes by (its retries, how long a send has waited unsent).
    /// `secrets`: the keyring holding the encryption's key (the engine set up at the first sync).
    public init(client: MatrixClient, store: MessageStore, policy: RetryPolicy = RetryPolicy(),
                clock: @escaping () -> Date = Date.init, secrets: SecretStore? = nil) {
        self.client = client
        self.store = store
        self.secrets = secrets
        self.policy = policy
        self.clock = clock
        sender = OutboxSender(store: store, client: client, policy: policy, clock: clock)
        fetcher = MediaFetcher(store: store, client: client, clock: clock)
        sender.onChange = { [weak self] in self?.changes.send(.sendState(messageID: $0)) }
        sender.onAnswer = { [weak self] in self?.serverAnswered() }
        fetcher.onDownloaded = { [weak self] in self?.changes.send(.downloaded(messageID: $0)) }
        fetcher.onFailedForGood = { [weak self] in self?.changes.send(.downloadFailed(messageID: $0)) }
    }

    /// Each download that failed, as a sentence.
    public var onDownloadFailure: (String, String) -> Void {
        get { fetcher.onFailure }
        set { fetcher.onFailure = newValue }
    }

    // MARK: Running in the background (the window)

    /// Starts sending and receiving until `stop`.
    public func start() {
        guard syncTask == nil else { return }
        outboxTask = Task { [weak self] in await self?.runOutbox() }
        syncTask = Task { [weak self] in await self?.runSync() }
        fetchDownloads()
    }

    public func stop() {
        outboxTask?.cancel()
        syncTask?.cancel()
        fetchTask?.cancel()
        outboxTask = nil
        syncTask = nil
        fetchTask = nil
    }

    private func runOutbox() async {
        await setUpEncryption()
        while !Task.isCancelled {
            switch await sender.sendDue() {
            case .signedOut:
                signedOut()
                return
            case .idle(let nextDue):
                await outboxWaker.wait(seconds: nextDue.map { max(0.05, $0.timeIntervalSince(clock())) })
            }
        }
    }

    /// Long-polls `/sync`. While the server cannot be reached it asks again
    /// every few seconds (`RetryPolicy.reconnectDelay`), so that its first
    /// answer, or the outbox's, ends "Offline" and sends what waited at once.
    private func runSync() async {
        var failures = 0
        while !Task.isCancelled {
            do throws(MatrixError) {
                // Offline, the server is asked not to hold the answer back: a
                // long-poll with nothing new kept "Offline" up for its 30 s.
                // Nor a new device's first (uploaded sends wait for it), nor
                // while gaps are left to fill.
                let holds = connectionProblem == nil && !store.matrix.isDeviceUnsynced
                    && (try? store.matrix.roomGaps().isEmpty) == true
                _ = try await syncOnce(timeoutMilliseconds: holds ? 30_000 : 0)
                failures = 0
            } catch .cancelled {
                return
            } catch .signedOutByServer {
                signedOut()
                return
            } catch {
                failures += 1
                if case .signedOut = sender.heldBackSyncFailed(error) {
                    signedOut()
                    return
                }
                setConnectionProblem(error.description)
                await reconnectWaker.wait(seconds: policy.reconnectDelay(afterFailures: failures))
            }
        }
    }

    /// The server answered after it could not be reached: what waited for it goes now.
    private func reconnected() {
        fetcher.forgetFailures()
        if syncTask != nil { fetchDownloads() }
        outboxWaker.wake()
        reconnectWaker.wake()
    }

    private func serverAnswered() {
        setConnectionProblem(nil)
    }

    private func signedOut() {
        try? store.matrix.setSignedOutByServer(true)
        stop()
        changes.send(.signedOutByServer)
    }

    private func setConnectionProblem(_ problem: String?) {
        guard problem != connectionProblem else { return }
        let wasOffline = connectionProblem != nil
        connectionProblem = problem
        changes.send(.connection(problem: problem))
        if wasOffline, problem == nil { reconnected() }
    }

    func fetchDownloads() {
        guard fetchTask == nil else {
            fetchAgain = true
            return
        }
        fetchTask = Task { [weak self] in
            repeat {
                self?.fetchAgain = false
                await self?.fetcher.fetchWaiting()
            } while self?.fetchAgain == true && !Task.isCancelled
            self?.fetchTask = nil
        }
    }

    // MARK: Steps (the CLI runs them one by one)

    /// One `/sync` applied to the store; new audio is fetched in the background
    /// when running (`start`), else by `fetchWaitingDownloads`. A sign-out by
    /// the server is kept in the store: the window and `hark` say so until the
    /// user signs in again.
    @discardableResult
    public func syncOnce(timeoutMilliseconds: Int = 0) async throws(MatrixError) -> SyncOutcome {
        do {
            return try await syncApplied(timeoutMilliseconds: timeoutMilliseconds)
        } catch .signedOutByServer {
            try? store.matrix.setSignedOutByServer(true)
            throw .signedOutByServer
        }
    }

    private func syncApplied(timeoutMilliseconds: Int) async throws(MatrixError) -> SyncOutcome {
        await setUpEncryption()
        if let encryption {
            // This device's keys go up before the sync is asked: the key counts it answers count them.
            do { try await encryption.prepare() } catch {
                throw (error as? MatrixError) ?? .badResponse(homeserver: client.displayName, detail: tr(
                    "the encryption could not keep what arrived: {reason}", ["reason": "\(error)"]))
            }
        }
        let since = store.matrix.syncToken
        var response = try await client.sync(since: since, timeoutMilliseconds: since == nil ? 0 : timeoutMilliseconds)
        setConnectionProblem(nil)
        // Room keys are kept before the token moves on: a crash cannot lose them.
        var decrypted = DecryptedSync()
        if let encryption {
            do { decrypted = try await encryption.decryptSync(&response, store: store, now: clock()) } catch {
                throw .badResponse(homeserver: client.displayName,
                                   detail: tr("the encryption could not keep what arrived: {reason}", ["reason": "\(error)"]))
            }
        }
        var outcome: SyncOutcome
        do {
            let applier = SyncApplier(store: store, userID: userID)
            outcome = try applier.apply(response, since: since)
            for (roomID, events) in decrypted.readable {
                try applier.applyTimeline(events, roomID: roomID, unread: true, into: &outcome)
            }
            try outcome.add(decrypted, store: store)
            try store.matrix.setSyncToken(response.nextBatch)
        } catch {
            throw .badResponse(homeserver: client.displayName, detail: tr("the store refused it: {reason}", ["reason": "\(error)"]))
        }
        var gapFailure: MatrixError?
        do throws(MatrixError) {
            try await GapFiller(store: store, client: client, userID: userID, encryption: encryption, now: clock())
                .fill(into: &outcome)
        } catch {
            gapFailure = error
        }
        report(outcome)
        if let gapFailure { throw gapFailure }
        if store.matrix.isDeviceUnsynced {
            // What the old device sent is known now (by its upload): the rest may go.
            try? store.matrix.setDeviceSynced()
            outboxWaker.wake()
        }
        return outcome
    }

    private func report(_ outcome: SyncOutcome) {
        if outcome.roomsChanged { changes.send(.rooms) }
        if !outcome.received.isEmpty || !outcome.removed.isEmpty || outcome.undecryptedChanged {
            changes.send(.messages(received: outcome.received, removed: outcome.removed))
        }
        // Also when nothing arrived: a download that failed for a while may be due again.
        if syncTask != nil { fetchDownloads() }
        for id in outcome.confirmedSends { changes.send(.sendState(messageID: id)) }
    }

    /// Downloads and analyses what is waiting; how many arrived.
    @discardableResult
    public func fetchWaitingDownloads() async -> Int { await fetcher.fetchWaiting() }

    /// Every queued send attempted once, due or not; the sends still queued
    /// after. On a new device, one already uploaded goes after a sync, which
    /// may show it arrived from the old one.
    public func sendQueuedNow() async -> [OutboxEntry] {
        await setUpEncryption()
        if store.matrix.isDeviceUnsynced, (try? store.matrix.queuedSends())?.contains(where: { $0.contentURI != nil }) == true {
            do throws(MatrixError) {
                try await syncOnce()
            } catch .cancelled {
                return (try? store.matrix.queuedSends()) ?? []
            } catch {
                if case .signedOut = sender.heldBackSyncFailed(error, dueBy: .distantFuture) { signedOut() }
            }
        }
        if case .signedOut = await sender.sendDue(by: .distantFuture, once: true) { signedOut() }
        return (try? store.matrix.queuedSends()) ?? []
    }

    // MARK: What the user does

    /// Queues a message to be sent into a room (refused for an encrypted
    /// room: nothing is ever sent there), and starts sending it; `caption`:
    /// the words it goes with (its transcript), inside its event.
    @discardableResult
    public func send(_ messageID: String, to roomID: String, caption: String? = nil) throws(ConversationError) -> OutboxEntry {
        guard let room = try? store.matrix.room(roomID) else { throw .noSuchRoom(roomID) }
        guard room.membership == .join else { throw .notJoined(room.displayName) }
        guard !room.isEncrypted || encryption != nil || mayEncrypt else { throw .matrix(.encryptedRoom) }
        do {
            let entry = try store.matrix.enqueueSend(messageID, roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                                     caption: caption, at: clock())
            changes.send(.sendState(messageID: messageID))
            outboxWaker.wake()
            return entry
        } catch {
            throw .store(error)
        }
    }

    /// Sends a failed message's sends again (same transaction ids).
    public func retry(_ messageID: String) throws(ConversationError) {
        do { try store.matrix.retrySends(of: messageID, at: clock()) } catch { throw .store(error) }
        changes.send(.sendState(messageID: messageID))
        outboxWaker.wake()
    }

    /// Looks at the outbox again now: a message brought back from a deletion
    /// has its queued sends again (the outbox passes over deleted messages).
    public func resumeSending() {
        outboxWaker.wake()
    }

    /// Removes a sent message from its rooms for everyone (a redaction of each
    /// event Hark sent it as, or a message received from the user's own account).
    public func deleteForEveryone(_ messageID: String) async throws(ConversationError) {
        let message: Message
        do { message = try store.message(messageID) } catch { throw .store(error) }
        var events = ((try? store.matrix.sends(of: messageID)) ?? []).compactMap { entry in
            entry.eventID.map { (room: entry.roomID, event: $0) }
        }
        if let event = message.eventID, let room = message.roomID, !events.contains(where: { $0.event == event }) {
            events.append((room, event))
        }
        guard !events.isEmpty else { throw .notSent }
        for (room, event) in events {
            do { try await client.redact(roomID: room, eventID: event) } catch { throw .matrix(error) }
        }
    }

    /// The user heard a message (played it): unread no more, and a read receipt.
    public func markHeard(_ messageID: String) {
        guard let message = try? store.message(messageID), let roomID = message.roomID,
              let eventID = try? store.matrix.markRead(messageID) else { return }
        changes.send(.rooms)
        Task { try? await client.sendReadReceipt(roomID: roomID, eventID: eventID) }
    }

    /// The user looked at a room: its messages are read, and the newest gets a receipt.
    public func markRoomSeen(_ roomID: String) {
        guard let eventID = try? store.matrix.markRoomRead(roomID) else { return }
        changes.send(.rooms)
        Task { try? await client.sendReadReceipt(roomID: roomID, eventID: eventID) }
    }

    /// Accepts an invitation (or joins a room by id).
    public func join(_ roomID: String) async throws(ConversationError) {
        do { try await client.join(roomID: roomID) } catch { throw .matrix(error) }
        try? store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .join))
        changes.send(.rooms)
    }

    /// Leaves a room, or declines its invitation.
    public func leave(_ roomID: String) async throws(ConversationError) {
        do { try await client.leave(roomID: roomID) } catch { throw .matrix(error) }
        try? store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .leave))
        changes.send(.rooms)
    }
}

public enum ConversationError: Error, Sendable, Equatable, CustomStringConvertible {
    case matrix(MatrixError)
    case store(StoreError)
    case noSuchRoom(String)
    case notJoined(String)
    case notSent
    /// Not a Matrix ID (`@name:server`), or the account's own.
    case notAUser(String)
    /// A Matrix ID no one has: the server knows no such user.
    case noSuchUser(String)

    public var description: String {
        switch self {
        case .matrix(let error): return error.description
        case .store(let error): return error.description
        case .noSuchRoom(let id): return tr("Hark knows no room {room}: join it first, or run `hark sync`.", ["room": id])
        case .notJoined(let name): return tr("You have not joined “{room}” yet: accept the invitation first.", ["room": name])
        case .notSent: return tr("This message was never sent, so there is nothing to delete for everyone.")
        case .notAUser(let text):
            return tr("“{text}” is not someone else’s Matrix ID: it looks like @name:server.example.", ["text": String(text.prefix(200))])
        case .noSuchUser(let userID):
            return tr("There is no one with the Matrix ID {user}.", ["user": String(userID.prefix(200))])
        }
    }
}
