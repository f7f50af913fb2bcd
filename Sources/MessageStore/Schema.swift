import CSQLite

/// The database schema, as migrations: `user_version` says how many ran.
/// Never edit a migration that has shipped; add the next one.
enum Schema {
    static let migrations: [String] = [
        // 1: messages and their cached levels.
        """
        CREATE TABLE messages (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            created_at REAL NOT NULL,
            duration REAL NOT NULL DEFAULT 0,
            file_name TEXT NOT NULL UNIQUE,
            codec TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('recording', 'ready', 'missing', 'deleted')),
            deleted_at REAL,
            play_position REAL NOT NULL DEFAULT 0
        );
        CREATE INDEX messages_by_state_and_time ON messages (state, created_at);
        CREATE TABLE levels (
            message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
            interval_ms INTEGER NOT NULL,
            encoding TEXT NOT NULL,
            data BLOB NOT NULL
        );
        """,
        // 2: search by title without scanning every row's title case-folded.
        """
        CREATE INDEX messages_by_title ON messages (title COLLATE NOCASE);
        """,
        // 3: the store's own notes, e.g. when its files were last reconciled.
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
        // 4: the newest-first page read straight off an index, however many
        // messages there are (the state index cannot serve `state != …`).
        """
        CREATE INDEX messages_by_time ON messages (created_at DESC, id);
        """,
        // 5: search titles by their words through a full-text index, any case
        // and accent ("cafe" finds "Café"), kept by triggers. It refers to the
        // messages' rowids: the store never VACUUMs, which could renumber them.
        """
        CREATE VIRTUAL TABLE messages_search USING fts5(
            title, content='messages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
        INSERT INTO messages_search (messages_search) VALUES ('rebuild');
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_search (rowid, title) VALUES (new.rowid, new.title);
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title) VALUES ('delete', old.rowid, old.title);
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF title ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title) VALUES ('delete', old.rowid, old.title);
            INSERT INTO messages_search (rowid, title) VALUES (new.rowid, new.title);
        END;
        """,
        // 6: whether a recording's voice was processed (noise reduction and
        // automatic gain): 1 or 0, NULL when unknown (imports, older takes).
        """
        ALTER TABLE messages ADD COLUMN voice_processed INTEGER;
        """,
    ]

    static var version: Int { migrations.count }

    /// Brings `database` to the current version. Safe when several processes
    /// open a new store at once: the version is read again inside the write
    /// lock (BEGIN IMMEDIATE), so only the first one to get it migrates.
    static func migrate(_ database: Database) throws(SQLiteError) {
        var version = 0
        try database.query("PRAGMA user_version") { row in version = Int(row.integer(0)) }
        guard version < Schema.version else { return }
        try database.execute("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            try database.query("PRAGMA user_version") { row in version = Int(row.integer(0)) }
            var tables = 0
            try database.query("SELECT count(*) FROM sqlite_schema WHERE name = 'messages'") { tables = Int($0.integer(0)) }
            // The version is set in the transaction that makes the tables: a
            // version 0 beside them is a header that lost its user_version.
            if version == 0, tables > 0 { throw SQLiteError(code: SQLITE_CORRUPT, message: "the schema version was lost") }
            for (index, migration) in migrations.enumerated().dropFirst(version) {
                try database.execute(migration)
                try database.execute("PRAGMA user_version = \(index + 1)")
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
