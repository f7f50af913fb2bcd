import CSQLite
import Localization

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
        // 7: Matrix. Where a message came from, and for one received or sent
        // through a room: the room, the sender, its event (never stored twice)
        // and its media. The rooms the account is in or invited to, their
        // members' names, and the outbox: a send's row, with its transaction
        // id, is written before the first request, so it survives a crash and
        // is resent with the same id (the server then answers the same event).
        // Imports made before Hark kept track are told by their codec.
        """
        ALTER TABLE messages ADD COLUMN origin TEXT NOT NULL DEFAULT 'recorded'
            CHECK (origin IN ('recorded', 'imported', 'received'));
        ALTER TABLE messages ADD COLUMN room_id TEXT;
        ALTER TABLE messages ADD COLUMN sender TEXT;
        ALTER TABLE messages ADD COLUMN event_id TEXT;
        ALTER TABLE messages ADD COLUMN media_url TEXT;
        ALTER TABLE messages ADD COLUMN unread INTEGER NOT NULL DEFAULT 0;
        UPDATE messages SET origin = 'imported' WHERE voice_processed IS NULL AND codec != 'opus';
        CREATE UNIQUE INDEX messages_by_event ON messages (event_id) WHERE event_id IS NOT NULL;
        CREATE INDEX messages_by_room ON messages (room_id, created_at) WHERE room_id IS NOT NULL;
        CREATE TABLE rooms (
            id TEXT PRIMARY KEY,
            name TEXT,
            membership TEXT NOT NULL CHECK (membership IN ('join', 'invite', 'leave')),
            encrypted INTEGER NOT NULL DEFAULT 0,
            inviter TEXT,
            last_activity REAL NOT NULL DEFAULT 0,
            last_sender TEXT,
            previous_batch TEXT,
            history_complete INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE room_members (
            room_id TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
            user_id TEXT NOT NULL,
            display_name TEXT,
            membership TEXT NOT NULL,
            PRIMARY KEY (room_id, user_id)
        );
        CREATE TABLE outbox (
            transaction_id TEXT PRIMARY KEY,
            message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
            room_id TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'failed')),
            content_uri TEXT,
            event_id TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL DEFAULT 0,
            last_error TEXT,
            queued_at REAL NOT NULL
        );
        CREATE INDEX outbox_by_message ON outbox (message_id);
        CREATE INDEX outbox_by_room ON outbox (room_id);
        """,
        // 8: transcripts. A message's transcript, its segments (JSON: start,
        // end, text), its state (NULL: none; queued, done, failed, empty: nothing
        // was said) and the words it is searched by (the transcript with its
        // numbers in the other form too: "10" and "ten"). The queue is the
        // queued rows, newest first, off their own index. `title_typed`: the
        // title was given by someone (typed, or a received message's), so a
        // transcript never replaces it; older titles other than the recording
        // default count as given. The full-text index is made anew over the
        // title and the transcript's words.
        """
        ALTER TABLE messages ADD COLUMN title_typed INTEGER NOT NULL DEFAULT 0;
        UPDATE messages SET title_typed = 1 WHERE title != 'Voice message';
        ALTER TABLE messages ADD COLUMN transcript TEXT;
        ALTER TABLE messages ADD COLUMN transcript_segments TEXT;
        ALTER TABLE messages ADD COLUMN transcript_state TEXT
            CHECK (transcript_state IN ('queued', 'done', 'failed', 'empty'));
        ALTER TABLE messages ADD COLUMN transcript_words TEXT;
        ALTER TABLE messages ADD COLUMN transcript_error TEXT;
        CREATE INDEX messages_transcript_queue ON messages (created_at DESC) WHERE transcript_state = 'queued';
        DROP TRIGGER messages_search_insert;
        DROP TRIGGER messages_search_delete;
        DROP TRIGGER messages_search_update;
        DROP TABLE messages_search;
        CREATE VIRTUAL TABLE messages_search USING fts5(
            title, transcript_words, content='messages', content_rowid='rowid',
            tokenize='unicode61 remove_diacritics 2');
        INSERT INTO messages_search (messages_search) VALUES ('rebuild');
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_search (rowid, title, transcript_words)
                VALUES (new.rowid, new.title, new.transcript_words);
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                VALUES ('delete', old.rowid, old.title, old.transcript_words);
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF title, transcript_words ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                VALUES ('delete', old.rowid, old.title, old.transcript_words);
            INSERT INTO messages_search (rowid, title, transcript_words)
                VALUES (new.rowid, new.title, new.transcript_words);
        END;
        """,
        // 9: titles and transcripts are indexed without apostrophes, as the
        // search reads what is typed ("grandmas" finds "Grandma's birthday":
        // the index held "grandma" and "s"). Contentless: what is indexed is
        // no longer the columns as they are, so the triggers give them, folded
        // as `SearchQuery.folded` folds what is typed.
        """
        DROP TRIGGER IF EXISTS messages_search_insert;
        DROP TRIGGER IF EXISTS messages_search_delete;
        DROP TRIGGER IF EXISTS messages_search_update;
        DROP TABLE IF EXISTS messages_search;
        CREATE VIRTUAL TABLE messages_search USING fts5(
            title, transcript_words, content='', tokenize='unicode61 remove_diacritics 2');
        INSERT INTO messages_search (rowid, title, transcript_words)
            SELECT rowid, replace(replace(replace(replace(title, '''', ''), '’', ''), '‘', ''), 'ʼ', ''),
                   replace(replace(replace(replace(transcript_words, '''', ''), '’', ''), '‘', ''), 'ʼ', '') FROM messages;
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_search (rowid, title, transcript_words)
                VALUES (new.rowid, replace(replace(replace(replace(new.title, '''', ''), '’', ''), '‘', ''), 'ʼ', ''),
                        replace(replace(replace(replace(new.transcript_words, '''', ''), '’', ''), '‘', ''), 'ʼ', ''));
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                VALUES ('delete', old.rowid, replace(replace(replace(replace(old.title, '''', ''), '’', ''), '‘', ''), 'ʼ', ''),
                        replace(replace(replace(replace(old.transcript_words, '''', ''), '’', ''), '‘', ''), 'ʼ', ''));
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF title, transcript_words ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                VALUES ('delete', old.rowid, replace(replace(replace(replace(old.title, '''', ''), '’', ''), '‘', ''), 'ʼ', ''),
                        replace(replace(replace(replace(old.transcript_words, '''', ''), '’', ''), '‘', ''), 'ʼ', ''));
            INSERT INTO messages_search (rowid, title, transcript_words)
                VALUES (new.rowid, replace(replace(replace(replace(new.title, '''', ''), '’', ''), '‘', ''), 'ʼ', ''),
                        replace(replace(replace(replace(new.transcript_words, '''', ''), '’', ''), '‘', ''), 'ʼ', ''));
        END;
        """,
        // 10: part of a title or transcript is found in every script: the
        // indexed text is folded by `SearchText` (hark_search_text, a
        // function of the store's own connections): Chinese, Japanese, Korean
        // and Thai cut into characters, accents off Greek, Arabic-script
        // letters and digits unified, apostrophes gone.
        """
        DROP TRIGGER IF EXISTS messages_search_insert;
        DROP TRIGGER IF EXISTS messages_search_delete;
        DROP TRIGGER IF EXISTS messages_search_update;
        DROP TABLE IF EXISTS messages_search;
        CREATE VIRTUAL TABLE messages_search USING fts5(
            title, transcript_words, content='', tokenize='unicode61 remove_diacritics 2');
        INSERT INTO messages_search (rowid, title, transcript_words)
            SELECT rowid, hark_search_text(title), hark_search_text(transcript_words) FROM messages;
        CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_search (rowid, title, transcript_words)
                VALUES (new.rowid, hark_search_text(new.title), hark_search_text(new.transcript_words));
        END;
        CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                VALUES ('delete', old.rowid, hark_search_text(old.title), hark_search_text(old.transcript_words));
        END;
        CREATE TRIGGER messages_search_update AFTER UPDATE OF title, transcript_words ON messages BEGIN
            INSERT INTO messages_search (messages_search, rowid, title, transcript_words)
                VALUES ('delete', old.rowid, hark_search_text(old.title), hark_search_text(old.transcript_words));
            INSERT INTO messages_search (rowid, title, transcript_words)
                VALUES (new.rowid, hark_search_text(new.title), hark_search_text(new.transcript_words));
        END;
        """,
        // 11: the outbox's clock and its second way of failing. A send the
        // server could not be reached for is tried until it has waited too
        // long (`waiting_since`: when it was queued, or retried by the user);
        // `expired` tells that "Not sent" apart from one the server refused.
        // `uploaded_size`: the bytes uploaded, which a message converted to
        // Ogg Opus for sending no longer has on disk (NULL: the file's own).
        """
        ALTER TABLE outbox ADD COLUMN waiting_since REAL;
        ALTER TABLE outbox ADD COLUMN expired INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE outbox ADD COLUMN uploaded_size INTEGER;
        UPDATE outbox SET waiting_since = queued_at;
        """,
        // 12: a received message's download: the size its event announced
        // (the download stops a little past it), and its last failure. A
        // permanent one (too large, not audio, refused) is not tried again;
        // a transient one (the network, the server's 5xx) after `retry_at`.
        """
        CREATE TABLE downloads (
            message_id TEXT PRIMARY KEY,
            announced_size INTEGER,
            failure TEXT,
            permanent INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0,
            retry_at REAL
        );
        """,
        // 13: the gaps in rooms' timelines. A `/sync` that brought only the
        // newest of what arrived (`limited`) leaves a gap between what the
        // store had and that batch: from its `prev_batch` back to the sync
        // token the store had (`to_token`). Kept until `/messages` filled it,
        // `from_token` moving back page by page, so a restart goes on with it.
        """
        CREATE TABLE room_gaps (
            id INTEGER PRIMARY KEY,
            room_id TEXT NOT NULL,
            from_token TEXT NOT NULL,
            to_token TEXT,
            UNIQUE (room_id, from_token)
        );
        """,
        // 14: what a send into an encrypted room encrypted (the event's
        // `m.room.encrypted` content, ciphertext only), kept so that a retry
        // sends the same ciphertext under the same transaction id. And how a
        // received message's encrypted audio is decrypted once downloaded
        // (the event's `file`: its address, key, IV and hash).
        """
        ALTER TABLE outbox ADD COLUMN encrypted_content TEXT;
        CREATE TABLE encrypted_media (
            message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
            file TEXT NOT NULL
        );
        """,
        // 15: which messages came or went encrypted, and which came from a
        // device its owner has not cross-signed (`unverified_device`). An
        // encrypted event Hark cannot read yet is a message row of its own
        // (received, no audio) with its event kept beside it until its key
        // arrives, so that a restart still reads it then: since when it
        // waits, the sender's code for withholding its key, whether Hark
        // gave up waiting, or why it will never be read (`refusal`).
        """
        ALTER TABLE messages ADD COLUMN encrypted INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN unverified_device INTEGER NOT NULL DEFAULT 0;
        UPDATE messages SET encrypted = 1 WHERE id IN (SELECT message_id FROM encrypted_media)
            OR id IN (SELECT message_id FROM outbox WHERE encrypted_content IS NOT NULL);
        CREATE TABLE undecrypted_events (
            message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
            event TEXT NOT NULL,
            held_since REAL NOT NULL,
            withheld TEXT,
            gave_up INTEGER NOT NULL DEFAULT 0,
            refusal TEXT
        );
        """,
        // 16: other people's identities, pinned on first use: the first
        // cross-signing master key seen for each user (their own account's
        // too). When the server later gives another, it is kept as
        // `changed_to` (and when it was seen) until the user accepts it; until
        // then no device of theirs counts as cross-signed.
        """
        CREATE TABLE identity_pins (
            user_id TEXT PRIMARY KEY,
            master_key TEXT NOT NULL,
            pinned_at REAL NOT NULL,
            changed_to TEXT,
            changed_at REAL
        );
        """,
        // 17: whose words a transcript is: made here by the engine ('local')
        // or sent inside the voice event by its sender ('sender', the
        // event's caption), which the engine never replaces. And the words a
        // send carries as its caption (NULL: none), chosen when it was
        // queued, so that every attempt sends the same event.
        """
        ALTER TABLE messages ADD COLUMN transcript_source TEXT CHECK (transcript_source IN ('local', 'sender'));
        UPDATE messages SET transcript_source = 'local' WHERE transcript_state IN ('done', 'empty');
        ALTER TABLE outbox ADD COLUMN caption TEXT;
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
            if version == 0, tables > 0 { throw SQLiteError(code: SQLITE_CORRUPT, message: tr("the schema version was lost")) }
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
