import Foundation
import Localization

/// How a received message's download stands: the size its event announced,
/// and its failures (a permanent one is shown on its row and not tried
/// again; a transient one is tried again after a wait).
extension MatrixTables {
    /// The size the message's event announced, if it did.
    public func announcedSize(of id: String) throws(StoreError) -> Int? {
        var size: Int?
        try store.run("SELECT announced_size FROM downloads WHERE message_id = ? AND announced_size IS NOT NULL",
                [.text(id)]) { size = Int($0.integer(0)) }
        return size
    }

    /// How many times the message's download failed so far.
    public func downloadAttempts(of id: String) throws(StoreError) -> Int {
        var attempts = 0
        try store.run("SELECT attempts FROM downloads WHERE message_id = ?", [.text(id)]) { attempts = Int($0.integer(0)) }
        return attempts
    }

    /// Notes that a download failed, `reason` a sentence; a transient failure
    /// is tried again from `retryAt`.
    public func noteDownloadFailure(_ id: String, reason: String, permanent: Bool, retryAt: Date? = nil) throws(StoreError) {
        try store.checkWritable()
        try store.run("""
            INSERT INTO downloads (message_id, failure, permanent, attempts, retry_at) VALUES (?, ?, ?, 1, ?)
            ON CONFLICT (message_id) DO UPDATE SET failure = excluded.failure, permanent = excluded.permanent,
                attempts = attempts + 1, retry_at = excluded.retry_at
            """, [.text(id), .text(reason), .integer(permanent ? 1 : 0),
                  retryAt.map { .real($0.timeIntervalSince1970) } ?? .null])
    }

    /// Transient failures may be tried again at once (the network came back).
    public func clearDownloadWaits() throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE downloads SET retry_at = NULL WHERE permanent = 0 AND retry_at IS NOT NULL")
    }

    /// Creates the (empty) file a message's download is written to as it
    /// arrives: in the store's own folder, on the same disk as the file it
    /// becomes, under a name recovery knows as a leftover, locked as an
    /// import's copy is (another process opening the store leaves it alone;
    /// one downloading the same message at once fails here).
    public func createDownloadFile(of message: Message) throws(StoreError) -> DownloadFile {
        try store.checkWritable()
        let path = store.messagesFolder.appendingPathComponent(ImportCopy.prefix + "download-" + message.fileName).path
        return try store.changingFolder { () throws(StoreError) -> DownloadFile in
            if FileManager.default.fileExists(atPath: path), !ImportCopy.isHeld(path) { unlink(path) }  // a killed run's
            return DownloadFile(copy: try ImportCopy(creating: path))
        }
    }

    /// Removes what `createDownloadFile` made, unless `adoptDownload` moved it into place.
    public func removeDownloadFile(_ file: DownloadFile) {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        store.changingFolder { file.copy.discard() }
    }
}

/// A download's file in the store's folder, locked while this object lives.
public final class DownloadFile {
    let copy: ImportCopy
    public var path: String { copy.path }

    init(copy: ImportCopy) { self.copy = copy }
}
