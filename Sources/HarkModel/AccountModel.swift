import Conversations
import Foundation
import Localization
import Matrix
import MessageStore
import Subscriptions

/// The window's Matrix account: signed out, signing in, signed in (with its
/// running `ConversationSession`), or signed out by the server. The token
/// lives in the Secret Service only (`MatrixAccount`); this only holds the
/// client made from it. Every network call is asynchronous on GLib's loop.
/// The window and its dialogs subscribe to its state and its session's changes.
@MainActor
public final class AccountModel {
    public enum State: Equatable, Sendable {
        case signedOut
        /// Reading the token from the keyring at start.
        case restoring
        case signedIn(userID: String)
        /// The server revoked the token: the rooms and messages stay, sending waits.
        case signedOutByServer(userID: String)
        /// The keyring holding the token is locked: the account, its rooms
        /// and messages stay, sending waits until it is unlocked.
        case keyringLocked(userID: String)
    }

    public let store: MessageStore
    private let secrets: SecretStore
    public private(set) var state: State = .signedOut {
        didSet { if state != oldValue { stateChanges.send(state) } }
    }
    /// The session of the signed-in account; kept (stopped) after the server
    /// signed it out, so a take recorded into a room is still queued.
    public private(set) var session: ConversationSession?
    /// The adopted session's changes, heard while it is the account's.
    private var sessionChanges: Subscription?
    /// Sets an adopted session going (sync, outbox); tests of the window
    /// alone leave it still.
    public var startSession: @MainActor (ConversationSession) -> Void = { $0.start() }
    /// How sessions retry; tests shorten the waits.
    public var retryPolicy = RetryPolicy()
    /// The state changed (to the state sent).
    public let stateChanges = Observers<State>()
    /// The running session's changes, on the main thread.
    public let changes = Observers<ConversationSession.Change>()

    public init(store: MessageStore, secrets: SecretStore = SecretStore()) {
        self.store = store
        self.secrets = secrets
        if let record = store.matrix.matrixAccount() {
            state = store.matrix.isSignedOutByServer ? .signedOutByServer(userID: record.userID) : .restoring
        }
    }

    var userID: String? {
        switch state {
        case .signedIn(let id), .signedOutByServer(let id), .keyringLocked(let id): return id
        case .signedOut, .restoring: return nil
        }
    }

    public var isSignedIn: Bool { if case .signedIn = state { return true } else { return false } }

    /// Whether encrypted rooms can be read and written (the engine is set up for this device).
    public var canEncrypt: Bool { session?.encryption != nil }
    /// Set Up Encryption: the engine installed, then the session's encryption set up.
    public let encryptionSetup = EncryptionSetup()

    /// Installs the encryption engine and sets the running session's encryption up, no restart.
    public func setUpEncryption() {
        guard let session else { return }
        encryptionSetup.start(for: session)
    }

    /// The account's cross-signing, for this device (signed in only).
    public var crossSigning: CrossSigning? {
        guard isSignedIn, let client = session?.client, let own = client.session else { return nil }
        return CrossSigning(client: client, userID: own.userID, deviceID: own.deviceID, store: store)
    }

    /// Whether the account's rooms are shown (signed in, or signed out by
    /// the server with its rooms kept).
    public var showsRooms: Bool { userID != nil }

    /// At start, or to unlock a locked keyring: the account the store names,
    /// its token from the keyring (which asks to be unlocked when locked);
    /// `problem` hears why it could not be (no Secret Service…).
    public func restore(problem: @escaping @MainActor (String) -> Void) {
        if case .keyringLocked = state { state = .restoring }
        guard state == .restoring else { return }
        Task { [weak self] in
            guard let self else { return }
            do throws(MatrixAccount.Failure) {
                if let client = try await MatrixAccount.restore(store: self.store, secrets: self.secrets) {
                    self.adopt(client)
                } else {
                    self.state = .signedOut
                }
            } catch .secrets(.locked) {
                guard let record = self.store.matrix.matrixAccount() else { self.state = .signedOut; return }
                self.state = .keyringLocked(userID: record.userID)
            } catch {
                self.state = .signedOut
                problem(tr("Your Matrix account could not be restored: {reason}", ["reason": error.description]))
            }
        }
    }

    /// Signs in; nil when signed in, else why not (a sentence, and details).
    public func signIn(server: String, user: String, password: String) async -> MatrixAccount.Failure? {
        do throws(MatrixAccount.Failure) {
            let client = try await MatrixAccount.signIn(homeserverText: server, user: user, password: password,
                                                        store: store, secrets: secrets)
            adopt(client)
            return nil
        } catch {
            return error
        }
    }

    /// Signs out (the server, the keyring, the store's rooms); nil when done.
    public func signOut() async -> String? {
        let client = session?.client
        session?.stop()
        do throws(MatrixAccount.Failure) {
            try await MatrixAccount.signOut(store: store, secrets: secrets, client: client)
        } catch {
            return error.description
        }
        session = nil
        state = .signedOut
        changes.send(.rooms)
        return nil
    }

    /// Takes a signed-in client: a session over the store, started.
    public func adopt(_ client: MatrixClient) {
        session?.stop()
        let session = ConversationSession(client: client, store: store, policy: retryPolicy, secrets: secrets)
        sessionChanges = session.changes.subscribe { [weak self] change in self?.handle(change) }
        self.session = session
        state = .signedIn(userID: session.userID)
        startSession(session)
        changes.send(.rooms)
    }

    private func handle(_ change: ConversationSession.Change) {
        if change == .signedOutByServer, let id = userID { state = .signedOutByServer(userID: id) }
        changes.send(change)
    }

    /// Stops the session and an install under way (the window closes).
    public func stop() {
        session?.stop()
        encryptionSetup.cancel()
    }
}
