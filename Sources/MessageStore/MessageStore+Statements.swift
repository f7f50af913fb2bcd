import Foundation
import Levels

/// The statements every part of the store runs through: rows in and out,
/// one statement or one transaction, salvaging a damaged database on the way.
extension MessageStore {
    func messages(where clause: String, _ values: [SQLValue]) throws(StoreError) -> [Message] {
        var found: [Message] = []
        try eachMessage(where: clause, values) { found.append($0) }
        return found
    }

    func insert(_ message: Message, levels: LevelTrack?) throws(StoreError) {
        try inTransaction {
            try database.query("""
                INSERT INTO messages (id, title, created_at, duration, file_name, codec, state, deleted_at, play_position,
                                      voice_processed, origin, room_id, sender, event_id, media_url, unread,
                                      title_typed, transcript_state, encrypted, unverified_device)
                VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(message.id), .text(message.title), .real(message.createdAt.timeIntervalSince1970),
                      .real(message.duration), .text(message.fileName), .text(message.codec), .text(message.state.rawValue),
                      message.voiceProcessed.map { .integer($0 ? 1 : 0) } ?? .null, .text(message.origin.rawValue),
                      .optionalText(message.roomID), .optionalText(message.sender), .optionalText(message.eventID),
                      .optionalText(message.mediaURL), .integer(message.unread ? 1 : 0),
                      // A received message's title is its sender's: never replaced.
                      .integer(message.titleTyped || message.origin == .received ? 1 : 0),
                      message.transcriptState == .none ? .null : .text(message.transcriptState.rawValue),
                      .integer(message.encrypted ? 1 : 0), .integer(message.unverifiedDevice ? 1 : 0)])
            if let levels { try storeLevels(message.id, levels) }
        }
    }

    func storeLevels(_ id: String, _ levels: LevelTrack) throws(SQLiteError) {
        try database.query("""
            INSERT INTO levels (message_id, interval_ms, encoding, data) VALUES (?, ?, ?, ?)
            ON CONFLICT (message_id) DO UPDATE SET interval_ms = excluded.interval_ms,
                encoding = excluded.encoding, data = excluded.data
            """, [.text(id), .integer(Int64(levels.intervalMilliseconds)), .text(LevelEncoding.name),
                  .blob(LevelEncoding.encode(levels))])
    }

    /// Runs one statement. One the damaged database fails is run again on
    /// the database salvaged from it, unless it had already handed out rows.
    func run(_ sql: String, _ values: [SQLValue] = [], row: (Row) -> Void = { _ in }) throws(StoreError) {
        var delivered = false
        do {
            try database.query(sql, values) { delivered = true; row($0) }
        } catch where error.isDamagedDatabase {
            try replaceDamagedDatabase()
            if delivered { throw .database(error) }
            do { try database.query(sql, values) { row($0) } } catch { throw storeError(error) }
        } catch {
            throw storeError(error)
        }
    }

    func update(_ sql: String, _ values: [SQLValue], _ id: String) throws(StoreError) {
        try checkWritable()
        try run(sql, values)
        if database.changes == 0 { _ = try message(id) }  // says "no such message" when that is why
    }

    /// Runs `body` in one transaction, again on the salvaged database when
    /// the damaged one fails it (nothing of the first try was committed).
    func inTransaction(_ body: () throws -> Void) throws(StoreError) {
        do {
            try inOneTransaction(body)
        } catch StoreError.database(let error) where error.isDamagedDatabase {
            try replaceDamagedDatabase()
            try inOneTransaction(body)
        }
    }

    private func inOneTransaction(_ body: () throws -> Void) throws(StoreError) {
        do {
            try database.transaction(body)
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw storeError(error)
        } catch {
            throw .database(SQLiteError(code: 1, message: "\(error)"))
        }
    }
}
