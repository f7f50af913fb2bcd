import Foundation
import MatrixCrypto

/// An `m.room.encrypted` event's content, as a room event (Megolm) or a
/// to-device message (Olm) carries it.
public enum EncryptedContent: Sendable, Equatable {
    /// A room event: decrypted with the room's inbound session `sessionID`.
    case megolm(sessionID: String, ciphertext: String, senderKey: String?, deviceID: String?)
    /// A to-device message: one ciphertext per recipient key (`type` 0 is a pre-key message).
    case olm(senderKey: String, ciphertexts: [String: OlmCiphertext])
    /// Another algorithm, or a content without the fields its algorithm needs.
    case unknown(algorithm: String)

    public struct OlmCiphertext: Sendable, Equatable {
        public var type: Int
        public var body: String
        public init(type: Int, body: String) {
            self.type = type
            self.body = body
        }
    }

    public init(_ content: JSONValue) {
        let algorithm = content["algorithm"]?.stringValue ?? ""
        switch algorithm {
        case MegolmAlgorithm.name:
            guard let session = content["session_id"]?.stringValue, let ciphertext = content["ciphertext"]?.stringValue
            else { self = .unknown(algorithm: algorithm); return }
            self = .megolm(sessionID: session, ciphertext: ciphertext, senderKey: content["sender_key"]?.stringValue,
                           deviceID: content["device_id"]?.stringValue)
        case OlmAlgorithm.name:
            guard let sender = content["sender_key"]?.stringValue, let map = content["ciphertext"]?.objectValue
            else { self = .unknown(algorithm: algorithm); return }
            var ciphertexts: [String: OlmCiphertext] = [:]
            for (key, value) in map {
                guard case .integer(let type)? = value["type"], let body = value["body"]?.stringValue else { continue }
                ciphertexts[key] = OlmCiphertext(type: Int(type), body: body)
            }
            self = .olm(senderKey: sender, ciphertexts: ciphertexts)
        default:
            self = .unknown(algorithm: algorithm)
        }
    }

    /// The content a Megolm-encrypted room event is sent with.
    public static func megolmContent(sessionID: String, ciphertext: String, senderKey: String, deviceID: String) -> JSONValue {
        // sender_key and device_id are deprecated (spec 1.3) but Element still sends them; readers must not rely on them.
        .object(["algorithm": .string(MegolmAlgorithm.name), "session_id": .string(sessionID),
                 "ciphertext": .string(ciphertext), "sender_key": .string(senderKey), "device_id": .string(deviceID)])
    }
}

/// A to-device event of a `/sync` (room keys, withheld notices, Olm messages).
public struct ToDeviceEvent: Decodable, Sendable, Equatable {
    public var type: String
    public var sender: String
    public var content: JSONValue

    enum CodingKeys: String, CodingKey { case type, sender, content }
    public init(type: String, sender: String, content: JSONValue) {
        self.type = type
        self.sender = sender
        self.content = content
    }
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        sender = try container.decode(String.self, forKey: .sender)
        content = (try? container.decodeIfPresent(JSONValue.self, forKey: .content)) ?? .object([:])
    }
}

/// What a `/sync` tells the encryption: to-device messages, whose devices
/// changed, and how many one-time keys the server still holds.
public struct EncryptionSyncChanges: Sendable, Equatable {
    public var toDevice: [ToDeviceEvent] = []
    public var changedDeviceLists: [String] = []
    public var leftDeviceLists: [String] = []
    /// nil when the server did not say (then nothing is topped up).
    public var oneTimeKeyCounts: [String: Int]?
    /// nil when the server did not say; else the algorithms whose fallback key is unused.
    public var unusedFallbackKeyTypes: [String]?

    public init() {}

    public var isEmpty: Bool {
        toDevice.isEmpty && changedDeviceLists.isEmpty && leftDeviceLists.isEmpty
    }
}
