/// Why a call to the encryption engine gave no result.
public enum CryptoEngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No engine in this folder: `install-crypto-engine` has not installed it.
    case notInstalled(folder: String)
    /// The helper could not be started.
    case couldNotStart(String)
    /// The state on disk is encrypted under another pickle key: the key in
    /// the keyring is not the one this device's state was saved with.
    case wrongPickleKey
    /// The helper ended before it answered (the next call starts it again,
    /// from its saved state).
    case helperExited
    /// The helper refused this call; the other calls go on.
    case refused(Refusal, String)

    public var description: String {
        switch self {
        case .notInstalled(let folder): return "the encryption engine is not installed in \(folder)"
        case .couldNotStart(let reason): return "the encryption engine could not be started: \(reason)"
        case .wrongPickleKey: return "the encryption state is locked with another key than the one given"
        case .helperExited: return "the encryption engine stopped before it answered"
        case .refused(let refusal, let message): return "the encryption engine refused (\(refusal.rawValue)): \(message)"
        }
    }
}

/// The helper's code for a refused call (crypto-engine.py): what the caller
/// does next depends on it. Codes this Hark does not know keep their text.
public struct Refusal: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No inbound session for this room and session id yet: the room key has
    /// not arrived (to-device, a later sync). Try again when it has.
    public static let waitingForKey = Refusal(rawValue: "waiting_for_key")
    /// The session we hold starts after this message's index.
    public static let unknownIndex = Refusal(rawValue: "unknown_index")
    /// This message index was already decrypted under another event id.
    public static let replay = Refusal(rawValue: "replay")
    /// The decrypted event names another room than the one it came in.
    public static let wrongRoom = Refusal(rawValue: "wrong_room")
    /// The Olm payload's recipient keys are another device's.
    public static let wrongRecipient = Refusal(rawValue: "wrong_recipient")
    /// No Olm session with that device (claim a one-time key), or the
    /// room's outbound session is another.
    public static let noSession = Refusal(rawValue: "no_session")
    /// Not a message that decrypts.
    public static let badMessage = Refusal(rawValue: "bad_message")
    /// Not a key (a one-time key, a session key that is not the session's).
    public static let badKey = Refusal(rawValue: "bad_key")
    /// The state file could not be read (not the pickle key: that is `.wrongPickleKey`).
    public static let stateUnreadable = Refusal(rawValue: "state_unreadable")
    /// The state could not be saved: the helper ended; nothing of the call counts.
    public static let stateUnwritable = Refusal(rawValue: "state_unwritable")
}
