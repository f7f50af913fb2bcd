import CSQLite
import Foundation
import Localization

/// An SQLite failure: the result code, SQLite's own message, and the
/// system's error number behind a failed read or write.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    /// `errno` of the failed system call (ENOSPC, EROFS…), 0 when none.
    public var systemError: Int32 = 0
    public var description: String { "SQLite error \(code): \(message)" }
    /// The disk has no room for what SQLite had to write (SQLite says "disk
    /// I/O error" when the -shm file could not grow).
    public var isDiskFull: Bool {
        code & 0xFF == SQLITE_FULL || systemError == ENOSPC || systemError == EDQUOT
    }
    /// A write refused because the file or its file system is read-only. Not
    /// a database moved away under the connection (another process salvaged it).
    public var isReadOnly: Bool {
        let movedAway = SQLITE_READONLY | 4 << 8  // SQLITE_READONLY_DBMOVED (a macro Swift cannot import)
        return (code & 0xFF == SQLITE_READONLY && code != movedAway) || systemError == EROFS
    }
    /// SQLITE_NOTADB or SQLITE_CORRUPT: the file is not a usable database.
    public var isDamagedDatabase: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
    }
    /// SQLITE_BUSY: another connection held the write lock past the wait.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY }
}

/// How a connection opens its file.
enum OpenMode {
    case readWrite
    /// Reads only, the WAL too: through its -shm file, which must exist or be
    /// creatable.
    case readOnly
    /// Reads the main file only, without locks, -wal or -shm: for a file that
    /// cannot change and has no WAL to read (a read-only folder, a full disk).
    case immutable
}

/// One connection to an SQLite database. Bound parameters only: values never
/// enter SQL text. Used from one thread at a time.
final class Database {
    private var handle: OpaquePointer

    init(path: String, create: Bool = true, mode: OpenMode = .readWrite) throws(SQLiteError) {
        var db: OpaquePointer?
        var name = path
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = Self.uri(path) + "?immutable=1"
        }
        let status = sqlite3_open_v2(name, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? tr("cannot open {path}", ["path": path])
            let systemError = db.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close(db)
            throw SQLiteError(code: status, message: message, systemError: systemError)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
        SearchTextFunction.register(on: db)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Closes the file now (its WAL checkpointed and removed, as SQLite does
    /// on close), before it is moved aside. An empty in-memory database
    /// takes its place: any later statement fails instead of touching a
    /// dangling handle.
    func close() {
        sqlite3_close_v2(handle)
        var empty: OpaquePointer?
        sqlite3_open_v2(":memory:", &empty, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        if let empty { handle = empty }
    }

    func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, systemError: sqlite3_system_errno(handle))
        }
    }

    /// Runs `sql` with `values` bound to its `?` parameters, calling `row`
    /// for each result row.
    func query(_ sql: String, _ values: [SQLValue] = [], row: (Row) throws(SQLiteError) -> Void = { _ in })
        throws(SQLiteError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw lastError
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, position)
            case .integer(let number): status = sqlite3_bind_int64(statement, position, number)
            case .real(let number): status = sqlite3_bind_double(statement, position, number)
            case .text(let text): status = sqlite3_bind_text(statement, position, text, -1, hark_sqlite_transient())
            case .blob(let data):
                status = data.withUnsafeBytes {
                    sqlite3_bind_blob(statement, position, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                      Int32($0.count), hark_sqlite_transient())
                }
            }
            guard status == SQLITE_OK else { throw SQLiteError(code: status, message: lastMessage) }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                throw lastError
            }
            try row(Row(statement: statement))
        }
    }

    /// Runs `body` in one transaction: all of it is committed, or none.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Switches to WAL mode unless the file is in it already. The switch needs
    /// an exclusive lock, and SQLite does not always wait for it through the
    /// busy handler (another process may be creating the same new store), so
    /// a busy answer is retried for as long as the busy timeout.
    func useWriteAheadLog() throws(SQLiteError) {
        var mode = ""
        try query("PRAGMA journal_mode") { mode = $0.text(0) ?? "" }
        guard mode.lowercased() != "wal" else { return }
        var attempt = 0
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch where error.code & 0xFF == SQLITE_BUSY || error.code & 0xFF == SQLITE_LOCKED {
                attempt += 1
                guard attempt < Self.busyTimeoutMilliseconds / 10 else { throw error }
                usleep(10_000)
            }
        }
    }

    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// How long a statement waits from now on for another process's write
    /// to end before it fails as busy (`busyTimeoutMilliseconds` until set).
    func waitWhenBusy(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// `path` as an SQLite URI: `file:` and the path, every byte but
    /// letters, digits and `/-._~` percent-encoded (`?`, `#` and `%` would
    /// otherwise be read as the URI's own).
    static func uri(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-._~".utf8)
        let encoded = path.utf8.map { plain.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }
        // An absolute path after an empty authority: `file:///…`.
        return (path.hasPrefix("/") ? "file://" : "file:") + encoded.joined()
    }

    /// The last failure on this connection, as an error.
    private var lastError: SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: lastMessage, systemError: sqlite3_system_errno(handle))
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether the connection can only read: opened so, or opened for writing
    /// a file SQLite could open only for reading (a read-only file system).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    static func optionalText(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
}

/// The current row of a statement; valid only inside the `row` callback.
struct Row {
    let statement: OpaquePointer

    func text(_ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    /// The column as whatever type it holds, to be bound again elsewhere.
    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(integer(column))
        case SQLITE_FLOAT: return .real(real(column))
        case SQLITE_TEXT: return .text(text(column) ?? "")
        case SQLITE_BLOB: return .blob(blob(column))
        default: return .null
        }
    }
    func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
