import Foundation

extension MessageStore {
    /// Whether the messages table and its indexes are sound: the part every
    /// command reads and writes. `PRAGMA quick_check` of the whole file reads
    /// every page, the levels too (most of the file: 0.13–0.2 s warm, 0.55 s
    /// cold for 10,000 messages); this reads a fifth of that. Damage
    /// elsewhere is met by the first statement that touches it.
    static func looksSound(_ database: Database) -> Bool {
        var result: [String] = []
        do { try database.query("PRAGMA quick_check(messages)") { result.append($0.text(0) ?? "") } } catch {
            return false
        }
        return result == ["ok"]
    }

    /// Replaces the open database, which a statement found damaged, by one
    /// salvaged from it; `recovery` says what was saved, and so does
    /// `latestSalvage` (this salvage alone) for a window to announce.
    func replaceDamagedDatabase() throws(StoreError) {
        // A connection opened for reading only may also be one reading a file
        // that changes under it (no locks): never moved aside from there.
        try checkWritable()
        database.close()
        var salvage = RecoveryReport()
        do { database = try Self.replaceDamagedDatabase(at: databasePath, seen: databaseFile, report: &salvage) } catch {
            throw .database(error)
        }
        databaseFile = Self.fileNumber(databasePath)
        chmod(databasePath, 0o600)
        databaseSwitches += 1
        guard salvage.movedAsideDatabase != nil else { return }  // another process salvaged it
        recovery.movedAsideDatabase = salvage.movedAsideDatabase
        recovery.salvagedMessages += salvage.salvagedMessages
        recovery.lostMessages += salvage.lostMessages
        latestSalvage = salvage
        salvagesSinceOpening += 1
    }

    /// The file's inode number, nil when there is none.
    static func fileNumber(_ path: String) -> ino_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_ino : nil
    }

    /// Moves the damaged database at `path` aside, kept with its -wal and
    /// -shm, and makes a new one holding the rows the damaged one still
    /// reads. The audio files no saved row names are adopted by `recover`.
    ///
    /// One process at a time (an `flock` beside the database): two that met
    /// the same damage would otherwise both move "the damaged file" aside,
    /// the second one the first's half-written salvage. `seen` is the file
    /// the caller found damaged: when the path holds another one by the time
    /// the lock is taken, another process has salvaged it, and that database
    /// is opened instead (the report stays empty).
    static func replaceDamagedDatabase(at path: String, seen: ino_t?,
                                       report: inout RecoveryReport) throws(SQLiteError) -> Database {
        try withSalvageLock(at: path, exclusive: true) { () throws(SQLiteError) in
            try replaceDamagedDatabaseLocked(at: path, seen: seen, report: &report)
        }
    }

    /// Runs `body` holding the salvage lock beside the database at `path`:
    /// exclusive to salvage, shared to open (so no one opens a salvage half
    /// written). Without a lock file (a read-only folder) it runs unlocked.
    static func withSalvageLock<T, E: Error>(at path: String, exclusive: Bool, _ body: () throws(E) -> T) throws(E) -> T {
        let lock = open(path + ".salvage-lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if lock >= 0 { flock(lock, exclusive ? LOCK_EX : LOCK_SH) }
        defer { if lock >= 0 { close(lock) } }  // closing drops the lock
        return try body()
    }

    /// Another process salvaged the database: the file at the path is no
    /// longer the one this store has open (which is the damaged one, moved
    /// aside). Opens the new one; true when it did, for the window to reload.
    public func followReplacedDatabase() -> Bool {
        guard let opened = databaseFile, let now = Self.fileNumber(databasePath), now != opened else { return false }
        let path = databasePath
        let fresh = Self.withSalvageLock(at: path, exclusive: false) { () -> (Database, ino_t?)? in
            guard let fresh = try? Self.openDatabase(at: path) else { return nil }
            guard Self.looksSound(fresh) else { fresh.close(); return nil }
            return (fresh, Self.fileNumber(path))
        }
        guard let (database, file) = fresh else { return false }
        self.database.close()
        self.database = database
        databaseFile = file
        databaseSwitches += 1
        return true
    }

    /// The moment a damaged database is set aside, in its new name.
    private static func stamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }

    private static func replaceDamagedDatabaseLocked(at path: String, seen: ino_t?,
                                                     report: inout RecoveryReport) throws(SQLiteError) -> Database {
        if let seen, let now = fileNumber(path), now != seen {
            let theirs = try openDatabase(at: path)
            if looksSound(theirs) { return theirs }
            theirs.close()
        }
        var aside = path + ".damaged-" + stamp()
        var attempt = 1
        while FileManager.default.fileExists(atPath: aside) {
            attempt += 1
            aside = path + ".damaged-" + stamp() + "-\(attempt)"
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        report.movedAsideDatabase = aside
        let fresh = try openDatabase(at: path)
        let saved = Salvage.copy(from: aside, into: fresh)
        report.salvagedMessages += saved.messages
        report.lostMessages += saved.lostMessages
        return fresh
    }
}
