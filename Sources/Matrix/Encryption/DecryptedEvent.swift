import Foundation
import MatrixCrypto

extension RoomEvent {
    /// This encrypted event read as its decrypted `payload` (`{type, content, room_id}`):
    /// the same id, sender and time, the plaintext's type and content. Nil when
    /// the payload has no type or names another room than `roomID` (a
    /// ciphertext replayed from elsewhere).
    public func decrypted(_ payload: JSONValue, roomID: String) -> RoomEvent? {
        guard let type = payload["type"]?.stringValue, payload["room_id"]?.stringValue == roomID else { return nil }
        var object: [String: JSONValue] = ["type": .string(type), "sender": .string(sender),
                                           "content": payload["content"] ?? .object([:])]
        if let eventID { object["event_id"] = .string(eventID) }
        if let originServerTimestamp { object["origin_server_ts"] = .integer(originServerTimestamp) }
        if let transactionID { object["unsigned"] = .object(["transaction_id": .string(transactionID)]) }
        guard var event = try? JSONDecoder().decode(RoomEvent.self, from: encodeJSON(.object(object))) else { return nil }
        // State never comes encrypted; a decrypted "m.room.encrypted" would loop.
        if case .encrypted = event.content { event.content = .other }
        event.wasEncrypted = true
        return event
    }
}

extension RoomEvent {
    /// A Megolm-encrypted event as JSON that decodes back to it (kept while
    /// its key has not arrived); nil for any other event.
    public var encryptedJSON: Data? {
        guard case .encrypted(.megolm(let sessionID, let ciphertext, let senderKey, let deviceID)) = content else { return nil }
        var encrypted: [String: JSONValue] = ["algorithm": .string(MegolmAlgorithm.name), "session_id": .string(sessionID),
                                              "ciphertext": .string(ciphertext)]
        if let senderKey { encrypted["sender_key"] = .string(senderKey) }
        if let deviceID { encrypted["device_id"] = .string(deviceID) }
        var object: [String: JSONValue] = ["type": .string(type), "sender": .string(sender), "content": .object(encrypted)]
        if let eventID { object["event_id"] = .string(eventID) }
        if let originServerTimestamp { object["origin_server_ts"] = .integer(originServerTimestamp) }
        if let transactionID { object["unsigned"] = .object(["transaction_id": .string(transactionID)]) }
        return encodeJSON(.object(object))
    }
}
