import Foundation
import Localization

/// An encrypted room event Hark cannot read yet, as the store keeps it (migration 15).
public struct HeldEvent: Sendable, Equatable {
    public var eventID: String
    public var roomID: String
    public var sender: String
    public var sentAt: Date
    /// The event as it came (JSON), to be decrypted once its key is here.
    public var event: Data
}

/// Encrypted events that cannot be read (yet). Each is a received message's
/// row of its own, without audio, so that its room's history shows it where
/// it came ("Waiting for this message's key") and `hark list` lists it; its
/// event is kept beside it, so a restart still decrypts it when its key
/// arrives. Then the row becomes the voice message (`receive`), or goes
/// (`dropUndecrypted`) when the event was something Hark does not show.
extension MatrixTables {
    /// Keeps an event (`event`: its JSON) until its key arrives; its row,
    /// when it is new (nil: the event is in the store already). `withheld`:
    /// the sender's code for not sharing the key; `refusal`: it will never be read, and why.
    @discardableResult
    public func holdUndecrypted(eventID: String, roomID: String, sender: String, sentAt: Date, event: Data,
                                withheld: String? = nil, refusal: String? = nil,
                                at now: Date = Date()) throws(StoreError) -> Message? {
        let held = HeldEvent(eventID: eventID, roomID: roomID, sender: sender, sentAt: sentAt, event: event)
        try store.checkWritable()
        if let id = try undecryptedMessage(eventID: held.eventID) {
            if let refusal { try setRefusal(of: id, refusal) }
            return nil
        }
        guard try !hasEvent(held.eventID) else { return nil }
        let id = UUID().uuidString.lowercased()
        var message = Message(id: id, title: tr("Encrypted message"), createdAt: held.sentAt, duration: 0,
                              fileName: "\(id).audio", codec: "audio", state: .missing, deletedAt: nil, playPosition: 0,
                              origin: .received, roomID: held.roomID, sender: held.sender, eventID: held.eventID)
        message.encrypted = true
        try store.inTransaction {
            try store.database.query("""
                INSERT INTO messages (id, title, created_at, file_name, codec, state, origin, room_id, sender, event_id,
                                      title_typed, encrypted)
                VALUES (?, ?, ?, ?, 'audio', 'missing', 'received', ?, ?, ?, 1, 1)
                """, [.text(id), .text(message.title), .real(held.sentAt.timeIntervalSince1970), .text(message.fileName),
                      .text(held.roomID), .text(held.sender), .text(held.eventID)])
            try store.database.query("""
                INSERT INTO undecrypted_events (message_id, event, held_since, withheld, refusal) VALUES (?, ?, ?, ?, ?)
                """, [.text(id), .text(String(decoding: held.event, as: UTF8.self)), .real(now.timeIntervalSince1970),
                      .optionalText(withheld), .optionalText(refusal)])
        }
        return try store.message(id)
    }

    /// The row standing for an event that cannot be read yet, if there is one.
    public func undecryptedMessage(eventID: String) throws(StoreError) -> String? {
        var id: String?
        try store.run("""
            SELECT id FROM messages JOIN undecrypted_events ON message_id = id WHERE event_id = ?
            """, [.text(eventID)]) { id = $0.text(0) }
        return id
    }

    /// The events whose key may still come, oldest first, with their rows and the sender's code for withholding it.
    public func heldEvents() throws(StoreError) -> [(messageID: String, event: HeldEvent, withheld: String?)] {
        var held: [(messageID: String, event: HeldEvent, withheld: String?)] = []
        try store.run("""
            SELECT id, event_id, room_id, sender, created_at, event, withheld
            FROM messages JOIN undecrypted_events ON message_id = id
            WHERE refusal IS NULL ORDER BY created_at, id
            """) { row in
            held.append((row.text(0) ?? "", HeldEvent(eventID: row.text(1) ?? "", roomID: row.text(2) ?? "",
                                                      sender: row.text(3) ?? "", sentAt: Date(timeIntervalSince1970: row.real(4)),
                                                      event: Data((row.text(5) ?? "").utf8)), row.text(6)))
        }
        return held
    }

    /// The sender said why they did not share the key of `messageID`'s event with this device.
    public func setWithheld(of messageID: String, _ code: String?) throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE undecrypted_events SET withheld = ? WHERE message_id = ?", [.optionalText(code), .text(messageID)])
    }

    public func setRefusal(of messageID: String, _ refusal: String) throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE undecrypted_events SET refusal = ? WHERE message_id = ?", [.text(refusal), .text(messageID)])
    }

    /// Stops waiting for the keys of events held since before `date`: their
    /// rows say the key never came. The ids of the rows that changed.
    @discardableResult
    public func giveUpUndecrypted(heldBefore date: Date) throws(StoreError) -> [String] {
        var ids: [String] = []
        try store.run("""
            SELECT message_id FROM undecrypted_events WHERE gave_up = 0 AND refusal IS NULL AND withheld IS NULL AND held_since < ?
            """, [.real(date.timeIntervalSince1970)]) { row in ids.append(row.text(0) ?? "") }
        guard !ids.isEmpty else { return [] }
        try store.checkWritable()
        try store.run("UPDATE undecrypted_events SET gave_up = 1 WHERE gave_up = 0 AND refusal IS NULL AND withheld IS NULL AND held_since < ?",
                      [.real(date.timeIntervalSince1970)])
        return ids
    }

    /// The rows of events that were decrypted and are not voice messages
    /// (text, reactions…) go: Hark does not show them. The ids of the rows removed.
    @discardableResult
    public func dropUndecrypted(eventIDs: [String]) throws(StoreError) -> [String] {
        var removed: [String] = []
        for eventID in eventIDs {
            guard let id = try undecryptedMessage(eventID: eventID) else { continue }
            try store.checkWritable()
            try store.run("DELETE FROM messages WHERE id = ?", [.text(id)])
            removed.append(id)
        }
        return removed
    }
}
