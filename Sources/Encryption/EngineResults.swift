import Foundation

/// This device's public identity keys (unpadded base64).
public struct IdentityKeys: Decodable, Equatable, Sendable {
    public let curve25519: String
    public let ed25519: String
    /// How many one-time keys the account holds at most.
    public let maxOneTimeKeys: Int
}

/// The unpublished keys to upload (`/keys/upload`), by key id: Curve25519
/// public keys in unpadded base64, to be signed and uploaded as
/// `signed_curve25519:ID`.
public struct UnpublishedKeys: Decodable, Equatable, Sendable {
    public let oneTimeKeys: [String: String]
    /// Empty, or the one fallback key not yet uploaded.
    public let fallbackKey: [String: String]
}

/// One Olm message for one device: an `m.olm.v1.curve25519-aes-sha2`
/// `ciphertext` entry.
public struct OlmMessage: Codable, Equatable, Sendable {
    /// 0: a pre-key message (it starts a session); 1: a normal one.
    public let type: Int
    public let body: String

    public init(type: Int, body: String) {
        self.type = type
        self.body = body
    }
}

/// A to-device payload encrypted for one device: the content of an
/// `m.room.encrypted` to-device event is `algorithm`, `sender_key` and this
/// `ciphertext` map (the device's Curve25519 key to its message).
public struct OlmEncrypted: Decodable, Equatable, Sendable {
    /// `m.olm.v1.curve25519-aes-sha2`.
    public let algorithm: String
    public let ciphertext: [String: OlmMessage]
    public let senderKey: String
}

/// A decrypted JSON payload (an Olm to-device payload, or a room event's
/// `{type, content, room_id}`), as the helper gave it, with who sent it.
public struct Decrypted: Equatable, Sendable {
    /// The payload's JSON object, encoded (sorted keys).
    public let plaintext: Data
    /// The sender's Curve25519 key.
    public let senderKey: String
    /// For room events: the index of the message in its Megolm session.
    public let messageIndex: Int?
    /// For room events: the Ed25519 key the room key came with (the sending device's).
    public let signingKey: String?
}

/// The Megolm part of a received `m.room.encrypted` room event, as `decryptRoomEvents` takes it.
public struct MegolmCiphertext: Equatable, Sendable {
    public let roomID: String
    public let sessionID: String
    public let ciphertext: String
    /// The event's id: the same message index under another id is a replay.
    public let eventID: String

    public init(roomID: String, sessionID: String, ciphertext: String, eventID: String) {
        self.roomID = roomID
        self.sessionID = sessionID
        self.ciphertext = ciphertext
        self.eventID = eventID
    }

    var arguments: [String: Any] {
        ["room_id": roomID, "session_id": sessionID, "ciphertext": ciphertext, "event_id": eventID]
    }
}

/// A room event encrypted with the room's outbound Megolm session.
public struct MegolmEncrypted: Decodable, Equatable, Sendable {
    public let sessionID: String
    /// The `ciphertext` of the `m.room.encrypted` content.
    public let ciphertext: String
    public let messageIndex: Int
    /// The session key from this message's index on: what goes, in an
    /// `m.room_key` over Olm, to the devices that have not got it.
    public let sessionKey: String
    /// Whether this message started a session (rotation): every device needs its key.
    public let newSession: Bool
    /// The devices `markRoomKeyShared` recorded for this session.
    public let sharedWith: [String]
    /// This device's Curve25519 key (`sender_key`, deprecated but still sent).
    public let senderKey: String

    enum CodingKeys: String, CodingKey {
        case ciphertext, messageIndex, sessionKey, newSession, sharedWith, senderKey
        case sessionID = "sessionId"
    }
}

/// What importing a room key did.
public struct RoomKeyImport: Decodable, Equatable, Sendable {
    public let roomID: String
    public let sessionID: String
    /// False when a session reaching further back was already known (it stays).
    public let imported: Bool
    /// The first message index the session we now hold decrypts.
    public let firstKnownIndex: Int

    enum CodingKeys: String, CodingKey {
        case imported, firstKnownIndex
        case roomID = "roomId"
        case sessionID = "sessionId"
    }
}
