import Foundation

/// What could be read out of a damaged database.
struct SalvageCount: Equatable {
    var messages = 0
    /// Messages the damaged file's indexes know of that could not be read
    /// (0 when no index could be read either: then nobody knows).
    var lostMessages = 0
}

/// Copies whatever rows of a damaged database can still be read into a new
/// one. Reads a private work copy of the damaged file, never the file itself
/// (which is kept as it was), and repairs the work copy's header when the
/// file is not recognised as a database at all.
enum Salvage {
    /// The messages columns, in the order of the current schema; a damaged
    /// file of an older version lacks the later ones.
    static let messageColumns = ["id", "title", "created_at", "duration", "file_name", "codec", "state",
                                 "deleted_at", "play_position", "voice_processed",
                                 "origin", "room_id", "sender", "event_id", "media_url", "unread",
                                 "title_typed", "transcript", "transcript_segments", "transcript_state",
                                 "transcript_words", "transcript_error", "transcript_source"]
    /// Other tables copied whole, as far as they read (a version before
    /// Matrix lacks them).
    static let otherTables: [(table: String, columns: [String])] = [
        ("rooms", ["id", "name", "membership", "encrypted", "inviter", "last_activity", "last_sender",
                   "previous_batch", "history_complete"]),
        ("room_members", ["room_id", "user_id", "display_name", "membership"]),
        ("outbox", ["transaction_id", "message_id", "room_id", "state", "content_uri", "event_id", "attempts",
                    "next_attempt_at", "last_error", "queued_at", "waiting_since", "expired",
                    "uploaded_size", "caption"]),
        // Lost, a pin would be taken again from whatever key the server gives next: a change accepted unseen.
        ("identity_pins", ["user_id", "master_key", "pinned_at", "changed_to", "changed_at"]),
    ]

    static func copy(from damaged: String, into fresh: Database) -> SalvageCount {
        let work = damaged + ".reading"
        defer { removeDatabaseFiles(work) }
        guard let source = openWorkCopy(of: damaged, at: work) else { return SalvageCount() }
        var count = SalvageCount()
        do {
            try fresh.execute("BEGIN IMMEDIATE")
            count = copyRows(from: source, into: fresh)
            try fresh.execute("COMMIT")
        } catch {
            try? fresh.execute("ROLLBACK")
            return SalvageCount()
        }
        return count
    }

    private static func copyRows(from source: Database, into fresh: Database) -> SalvageCount {
        var count = SalvageCount()
        let present = Set(columns(of: "messages", in: source))
        let columns = messageColumns.filter(present.contains)
        guard columns.contains("id") else { return count }
        let insert = "INSERT OR IGNORE INTO messages (\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        _ = source.readableRows(of: "messages", columns: columns) { row in
            let values = (0..<columns.count).map { row.value(Int32($0 + 1)) }
            if (try? fresh.query(insert, values)) != nil, fresh.changes == 1 { count.messages += 1 }
        }
        _ = source.readableRows(of: "levels", columns: ["message_id", "interval_ms", "encoding", "data"]) { row in
            // A level row whose message was lost fails its foreign key: skipped.
            try? fresh.query("INSERT OR IGNORE INTO levels (message_id, interval_ms, encoding, data) VALUES (?, ?, ?, ?)",
                             (1...4).map { row.value($0) })
        }
        for (table, wanted) in otherTables {
            let found = Set(Self.columns(of: table, in: source))
            let copied = wanted.filter(found.contains)
            guard !copied.isEmpty else { continue }
            let insert = "INSERT OR IGNORE INTO \(table) (\(copied.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: copied.count).joined(separator: ", ") + ")"
            _ = source.readableRows(of: table, columns: copied) { row in
                try? fresh.query(insert, (0..<copied.count).map { row.value(Int32($0 + 1)) })
            }
        }
        _ = source.readableRows(of: "meta", columns: ["key", "value"]) { row in
            // Not when the files were last compared with the rows: the rows changed.
            guard row.text(1) != "files_checked" else { return }
            try? fresh.query("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", [row.value(1), row.value(2)])
        }
        count.lostMessages = max(0, knownMessageCount(in: source) - count.messages)
        return count
    }

    /// How many messages the damaged file had, as the first of its indexes
    /// on messages that can be counted says.
    private static func knownMessageCount(in source: Database) -> Int {
        var indexes: [String] = []
        try? source.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages'") {
            indexes.append($0.text(0) ?? "")
        }
        for index in indexes {
            var total: Int?
            try? source.query("SELECT count(*) FROM messages INDEXED BY \"\(index)\"") { total = Int($0.integer(0)) }
            if let total { return total }
        }
        return 0
    }

    private static func columns(of table: String, in source: Database) -> [String] {
        var names: [String] = []
        try? source.query("SELECT name FROM pragma_table_info(?)", [.text(table)]) { names.append($0.text(0) ?? "") }
        return names
    }

    /// A copy of the damaged file (and its WAL) that SQLite reads, with a
    /// rebuilt header if the file's own is not readable; nil when neither is.
    private static func openWorkCopy(of damaged: String, at work: String) -> Database? {
        removeDatabaseFiles(work)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: damaged + suffix) {
            guard (try? FileManager.default.copyItem(atPath: damaged + suffix, toPath: work + suffix)) != nil else {
                return nil
            }
        }
        if let database = openReadable(work) { return database }
        guard let handle = FileHandle(forUpdatingAtPath: work) else { return nil }
        defer { try? handle.close() }
        let fileSize = Int((try? handle.seekToEnd()) ?? 0)
        try? handle.seek(toOffset: 0)
        guard let start = try? handle.read(upToCount: 2 * 65536) else { return nil }
        let writeAheadLog = FileManager.default.fileExists(atPath: work + "-wal")
        for pageSize in DatabaseHeader.plausiblePageSizes(fileStart: start, fileSize: fileSize) {
            let header = DatabaseHeader.rebuilt(pageSize: pageSize, pageCount: fileSize / pageSize,
                                                writeAheadLog: writeAheadLog)
            guard (try? handle.seek(toOffset: 0)) != nil, (try? handle.write(contentsOf: header)) != nil else { return nil }
            try? handle.synchronize()
            if let database = openReadable(work) { return database }
        }
        return nil
    }

    /// The database at `path` if its schema can be read.
    private static func openReadable(_ path: String) -> Database? {
        guard let database = try? Database(path: path, create: false),
              (try? database.query("SELECT count(*) FROM sqlite_schema")) != nil,
              !columns(of: "messages", in: database).isEmpty else { return nil }
        return database
    }

    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
