import Foundation

/// Where the store is and how its database is opened.
extension MessageStore {
    /// The store under `$XDG_DATA_HOME/hark` (default `~/.local/share/hark`).
    public static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/share")
        return URL(fileURLWithPath: dataHome).appendingPathComponent("hark")
    }

    /// Hidden copies left by imports killed before their row was written:
    /// never messages. Those whose row exists are finished by `recover`.
    func removeAbandonedImports() {
        ImportCopy.removeAbandoned(in: messagesFolder.path) { fileName in
            (try? messages(where: "file_name = ?", [.text(fileName)]).isEmpty == false) ?? true
        }
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
            throw .file(path: url.path, detail: "cannot create the folder (\(error.localizedDescription))")
        }
        chmod(url.path, 0o700)
    }
}
