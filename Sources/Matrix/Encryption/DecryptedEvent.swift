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
