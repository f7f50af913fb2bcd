import CSQLite
import Foundation
import Localization

/// Whether the store can be changed, or only read.
public enum StoreAccess: Sendable, Equatable {
    case readWrite
    /// Its folder (or database file) cannot be written: a backup mounted
    /// read-only, say.
    case readOnly
    /// Its disk is full: SQLite could not even make room to read (the -shm
    /// file), so the database was opened for reading only.
    case diskFull
}

/// Where the store is and how its database is opened.
extension MessageStore {
    /// The store under `$XDG_DATA_HOME/hark` (default `$HOME/.local/share/hark`).
    public static var defaultFolder: URL {
        XDGDirectories().dataHome.appendingPathComponent("hark")
    }

    /// The database at `path`, opened for writing (and made and migrated if
    /// need be); one that cannot be written because its folder is read-only
    /// or its disk is full is opened for reading instead. A damaged one is
    /// replaced by its salvage, when it can be written (the quick check that
    /// finds it is left out unless `checkingForDamage`).
    static func openConnection(at path: String, in folder: URL, checkingForDamage: Bool = true,
                               report: inout RecoveryReport) throws(StoreError)
        -> (database: Database, access: StoreAccess) {
        var sound: Database?
        var seen: ino_t?
        do {
            // Not while another process salvages it: the file would be half written.
            try withSalvageLock(at: path, exclusive: false) { () throws(SQLiteError) in
                seen = fileNumber(path)
                let opened = try openDatabase(at: path)
                if !checkingForDamage || looksSound(opened) { sound = opened } else { opened.close() }
            }
        } catch let error where error.isDamagedDatabase {
            // Not a database at all (its header is gone): salvaged below too.
        } catch {
            guard let limit = writeLimit(folder: folder, path: path, after: error) else { throw .database(error) }
            return (try openForReading(at: path, because: limit, folder: folder), limit)
        }
        // SQLite opens a file it may not write for reading, saying nothing.
        if let sound { return (sound, sound.isReadOnly ? .readOnly : .readWrite) }
        if Glibc.access(folder.path, W_OK) != 0 {  // nowhere to move it aside, nowhere to salvage to
            throw unreadable(path, .readOnly, tr("it is damaged: it can be repaired only where it can be written"))
        }
        do { return (try replaceDamagedDatabase(at: path, seen: seen, report: &report), .readWrite) } catch {
            throw .database(error)
        }
    }

    /// Why opening the database for writing failed with `error`, when it is
    /// that the store cannot be written at all; nil for any other failure.
    static func writeLimit(folder: URL, path: String, after error: SQLiteError) -> StoreAccess? {
        if error.isReadOnly || Glibc.access(folder.path, W_OK) != 0
            || (FileManager.default.fileExists(atPath: path) && Glibc.access(path, W_OK) != 0) {
            return .readOnly
        }
        return error.isDiskFull ? .diskFull : nil
    }

    /// The database at `path` for reading only. A WAL (another process has
    /// the store open, or one was killed) is read through its -shm; with no
    /// WAL, or an empty one that SQLite cannot read without making its -shm
    /// (which needs room, or a writable folder), the main file is the whole
    /// database and is read as immutable: no lock, no -wal, no -shm.
    /// Damage is never salvaged here: that needs writing.
    static func openForReading(at path: String, because limit: StoreAccess, folder: URL) throws(StoreError) -> Database {
        var database: Database?
        var status = stat()
        let wal = path + "-wal"
        if stat(wal, &status) == 0 {
            database = try? Database(path: path, create: false, mode: .readOnly)
            if let opened = database, (try? opened.query("SELECT count(*) FROM sqlite_schema")) == nil { database = nil }
            if database == nil, status.st_size > 0 {
                throw unreadable(path, limit, tr("its write-ahead log ({file}) holds changes SQLite cannot read without writing", ["file": wal]))
            }
        }
        if database == nil {
            do { database = try Database(path: path, create: false, mode: .immutable) } catch {
                throw .database(error)
            }
        }
        guard let database else { throw .database(SQLiteError(code: SQLITE_CANTOPEN, message: tr("cannot open {path}", ["path": path]))) }
        var version = 0
        do { try database.query("PRAGMA user_version") { version = Int($0.integer(0)) } } catch {
            throw .database(error)
        }
        guard version >= Schema.version else {
            throw unreadable(path, limit, tr("it was made by an older Hark: it must be upgraded first, which needs writing"))
        }
        guard looksSound(database) else {
            throw unreadable(path, limit, tr("it is damaged: it can be repaired only where it can be written"))
        }
        try? database.execute("PRAGMA foreign_keys = ON")
        return database
    }

    /// Why the database at `path`, which cannot be written, cannot be read either.
    private static func unreadable(_ path: String, _ limit: StoreAccess, _ detail: String) -> StoreError {
        .file(path: path, detail: limit == .diskFull
                ? tr("cannot be read: the disk is full and {reason}", ["reason": detail])
                : tr("cannot be read: its folder is read-only and {reason}", ["reason": detail]))
    }

    /// When the store was opened for reading only, the reason, as the error
    /// a change meets. A store opened on a full disk opens for writing again
    /// first, in case there is room now.
    public func checkWritable() throws(StoreError) {
        switch access {
        case .readWrite: return
        case .readOnly: throw .readOnly(folder: folder.path)
        case .diskFull:
            let path = databasePath
            let reopened = Self.withSalvageLock(at: path, exclusive: false) { () -> Database? in
                guard let fresh = try? Self.openDatabase(at: path) else { return nil }
                guard Self.looksSound(fresh) else { fresh.close(); return nil }
                return fresh
            }
            guard let reopened else { throw .diskFull(folder: folder.path) }
            database.close()
            database = reopened
            databaseFile = Self.fileNumber(path)
            access = .readWrite
        }
    }

    /// A failed statement's error as the user is told it: a full disk or a
    /// read-only store named as such.
    func storeError(_ error: SQLiteError) -> StoreError {
        if error.isDiskFull || (access == .diskFull && error.isReadOnly) { return .diskFull(folder: folder.path) }
        if error.isReadOnly { return .readOnly(folder: folder.path) }
        return .database(error)
    }

    static func openDatabase(at path: String) throws(SQLiteError) -> Database {
        let database = try Database(path: path)
        // Reading the schema is where "file is not a database" shows.
        try database.useWriteAheadLog()
        try database.execute("PRAGMA synchronous = NORMAL")
        try database.execute("PRAGMA foreign_keys = ON")
        try Schema.migrate(database)
        return database
    }

    static func makePrivateFolder(_ url: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .file(path: url.path, detail: tr("cannot create the folder ({reason})", ["reason": error.localizedDescription]))
        }
        chmod(url.path, 0o700)
    }
}
