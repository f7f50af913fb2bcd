import Foundation

/// The outbox: sends of messages into rooms, kept until the server confirmed them.
extension MatrixTables {
    /// Queues `messageID` to be sent into `roomID`, under a transaction id
    /// that every attempt reuses; `caption`: the words it goes out with
    /// (its transcript), kept with the send so that every attempt sends them.
    @discardableResult
    public func enqueueSend(_ messageID: String, roomID: String, transactionID: String, caption: String? = nil,
                            at date: Date = Date()) throws(StoreError) -> OutboxEntry {
        _ = try store.message(messageID)
        try store.checkWritable()
        try store.run("""
            INSERT INTO outbox (transaction_id, message_id, room_id, state, queued_at, waiting_since, caption)
            VALUES (?, ?, ?, 'queued', ?, ?, ?)
            """, [.text(transactionID), .text(messageID), .text(roomID), .real(date.timeIntervalSince1970),
                  .real(date.timeIntervalSince1970), .optionalText(caption)])
        return try outboxEntry(transactionID)!
    }

    public func outboxEntry(_ transactionID: String) throws(StoreError) -> OutboxEntry? {
        try outbox(where: "transaction_id = ?", [.text(transactionID)]).first
    }

    /// The entry that sent `eventID`, if Hark sent it.
    public func outboxEntry(eventID: String) throws(StoreError) -> OutboxEntry? {
        try outbox(where: "event_id = ?", [.text(eventID)]).first
    }

    /// The send into `roomID` whose audio was uploaded to `contentURI`, if Hark uploaded it.
    public func outboxEntry(contentURI: String, roomID: String) throws(StoreError) -> OutboxEntry? {
        try outbox(where: "content_uri = ? AND room_id = ? ORDER BY queued_at, rowid", [.text(contentURI), .text(roomID)]).first
    }

    /// Every send of a message, oldest first.
    public func sends(of messageID: String) throws(StoreError) -> [OutboxEntry] {
        try outbox(where: "message_id = ? ORDER BY queued_at, rowid", [.text(messageID)])
    }

    /// Queued sends whose message still exists (not deleted), oldest first.
    public func queuedSends() throws(StoreError) -> [OutboxEntry] {
        try outbox(where: """
            state = 'queued' AND message_id IN (SELECT id FROM messages WHERE state != 'deleted')
            ORDER BY queued_at, rowid
            """, [])
    }

    /// How a message's sends stand: failed if any failed, else sending if any
    /// is queued, else sent; nil when it was never sent.
    public func sendState(of messageID: String) throws(StoreError) -> SendState? {
        Self.sendState(Set(try sends(of: messageID).map(\.state)))
    }

    /// How each sent message's sends stand, and the first event it was sent
    /// as, in one read (for listing many messages).
    public func sendSummaries() throws(StoreError) -> [String: (state: SendState, eventID: String?)] {
        var found: [String: (states: Set<OutboxEntry.State>, eventID: String?)] = [:]
        try store.run("SELECT message_id, state, event_id FROM outbox ORDER BY queued_at, rowid") { row in
            let id = row.text(0) ?? ""
            var summary = found[id] ?? ([], nil)
            summary.states.insert(OutboxEntry.State(rawValue: row.text(1) ?? "") ?? .failed)
            summary.eventID = summary.eventID ?? row.text(2)
            found[id] = summary
        }
        return found.mapValues { summary in
            (Self.sendState(summary.states) ?? .sending, summary.eventID)
        }
    }

    static func sendState(_ states: Set<OutboxEntry.State>) -> SendState? {
        if states.contains(.failed) { return .failed }
        if states.contains(.queued) { return .sending }
        return states.contains(.sent) ? .sent : nil
    }

    /// The audio was uploaded to `contentURI`, `size` bytes.
    public func setUploaded(_ transactionID: String, contentURI: String, size: Int? = nil) throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE outbox SET content_uri = ?, uploaded_size = ? WHERE transaction_id = ?",
                [.text(contentURI), size.map { .integer(Int64($0)) } ?? .null, .text(transactionID)])
    }

    /// The server confirmed the send as `eventID`. A message recorded into
    /// that room takes the event as its own, so the sync's echo of it is
    /// known and never lands as a second message.
    public func markSent(_ transactionID: String, eventID: String) throws(StoreError) {
        try store.checkWritable()
        guard let entry = try outboxEntry(transactionID) else { return }
        try store.inTransaction {
            try store.database.query("UPDATE outbox SET state = 'sent', event_id = ?, last_error = NULL WHERE transaction_id = ?",
                               [.text(eventID), .text(transactionID)])
            try store.database.query("""
                UPDATE messages SET event_id = ?, media_url = coalesce(media_url, ?)
                WHERE id = ? AND room_id = ? AND event_id IS NULL AND NOT EXISTS (SELECT 1 FROM messages WHERE event_id = ?)
                """, [.text(eventID), .optionalText(entry.contentURI), .text(entry.messageID), .text(entry.roomID),
                      .text(eventID)])
        }
    }

    /// An attempt failed: try again at `retryAt`, or (nil) give up until the
    /// user retries; `expired`: given up for having waited too long unsent,
    /// not for a refusal.
    public func markAttemptFailed(_ transactionID: String, error: String, retryAt: Date?,
                                  expired: Bool = false) throws(StoreError) {
        try store.checkWritable()
        try store.run("""
            UPDATE outbox SET attempts = attempts + 1, last_error = ?, state = ?, next_attempt_at = ?, expired = ?
            WHERE transaction_id = ? AND state = 'queued'
            """, [.text(error), .text(retryAt == nil ? "failed" : "queued"),
                  .real(retryAt?.timeIntervalSince1970 ?? 0), .integer(retryAt == nil && expired ? 1 : 0),
                  .text(transactionID)])
    }

    /// Queues a failed send again, at once (same transaction id); it may
    /// wait unsent as long again from `date`.
    public func retrySend(_ transactionID: String, at date: Date = Date()) throws(StoreError) {
        try store.checkWritable()
        try store.run("""
            UPDATE outbox SET state = 'queued', attempts = 0, next_attempt_at = 0, expired = 0, waiting_since = ?
            WHERE transaction_id = ? AND state = 'failed'
            """, [.real(date.timeIntervalSince1970), .text(transactionID)])
    }

    /// Queues every failed send of a message again.
    public func retrySends(of messageID: String, at date: Date = Date()) throws(StoreError) {
        for entry in try sends(of: messageID) where entry.state == .failed { try retrySend(entry.transactionID, at: date) }
    }

    private func outbox(where clause: String, _ values: [SQLValue]) throws(StoreError) -> [OutboxEntry] {
        var found: [OutboxEntry] = []
        try store.run("""
            SELECT transaction_id, message_id, room_id, state, content_uri, event_id, attempts, next_attempt_at,
                   last_error, queued_at, coalesce(waiting_since, queued_at), expired,
                   uploaded_size, caption FROM outbox WHERE \(clause)
            """, values) { row in
            found.append(OutboxEntry(
                transactionID: row.text(0) ?? "", messageID: row.text(1) ?? "", roomID: row.text(2) ?? "",
                state: OutboxEntry.State(rawValue: row.text(3) ?? "") ?? .failed, contentURI: row.text(4),
                eventID: row.text(5), attempts: Int(row.integer(6)),
                nextAttemptAt: Date(timeIntervalSince1970: row.real(7)), lastError: row.text(8),
                queuedAt: Date(timeIntervalSince1970: row.real(9)),
                waitingSince: Date(timeIntervalSince1970: row.real(10)), expired: row.integer(11) != 0,
                uploadedSize: row.isNull(12) ? nil : Int(row.integer(12)), caption: row.text(13)))
        }
        return found
    }
}
