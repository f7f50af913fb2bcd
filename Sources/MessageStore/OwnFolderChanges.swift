import Foundation

/// Changes Hark itself makes to `messages/` (a recording's file and lock, an
/// import's copy and its rename, a purge), one after another, and whether
/// nothing else changed the folder in between.
///
/// Recovery compares the files with the rows only when the folder's
/// modification time differs from the one stamped at the last comparison.
/// Hark knows what it wrote, so its own changes move that stamp along
/// (`noteOwn`): the stamp before the first change must still be the stamped
/// one, each change must start from the time the previous one left, and only
/// then is the time after the last one stamped. Any other change, before or
/// between them, leaves the old stamp, and the next open compares.
struct OwnFolderChanges {
    let folder: String
    private(set) var first: String?
    private(set) var last: String?
    private(set) var unbroken = true

    init(folder: String) { self.folder = folder }

    /// Changes following a look at the folder that found it at `stamp`.
    init(folder: String, from stamp: String) {
        self.folder = folder
        first = stamp
        last = stamp
    }

    /// Makes one change (a create, rename or unlink in the folder).
    mutating func make<T, E: Error>(_ change: () throws(E) -> T) throws(E) -> T {
        let before = MessageStore.modificationStamp(folder)
        if let last, last != before { unbroken = false }  // someone else changed it meanwhile
        if first == nil { first = before }
        defer { last = MessageStore.modificationStamp(folder) }
        return try change()
    }
}

extension MessageStore {
    func ownChanges() -> OwnFolderChanges { OwnFolderChanges(folder: messagesFolder.path) }

    /// Moves the comparison's stamp past `changes` when it was current before
    /// them and nothing else came between (one statement: two processes
    /// noting at once cannot both move it). A failure only means the next
    /// open compares.
    func noteOwn(_ changes: OwnFolderChanges) {
        guard changes.unbroken, let first = changes.first, let last = changes.last, first != last else { return }
        try? run("UPDATE meta SET value = ? WHERE key = 'files_checked' AND value = ?", [.text(last), .text(first)])
    }

    /// One change of Hark's own to `messages/`, noted at once.
    func changingFolder<T, E: Error>(_ change: () throws(E) -> T) throws(E) -> T {
        var changes = ownChanges()
        defer { noteOwn(changes) }
        return try changes.make(change)
    }

    /// Whether something other than Hark's own writes changed `messages/`
    /// since its files were last compared with the rows (or they never were):
    /// what makes `compareFiles` do its work. Cheap: one `stat` and one row.
    public var filesChangedSinceComparison: Bool {
        var stamped: String?
        try? run("SELECT value FROM meta WHERE key = 'files_checked'") { stamped = $0.text(0) }
        return stamped != Self.modificationStamp(messagesFolder.path)
    }

    /// The folder's modification time to the nanosecond, as text. (Since
    /// Linux 6.13, ext4, XFS, Btrfs and tmpfs give a change right after a
    /// `stat` a finer time than the last one, so no change hides behind the
    /// stamp just read.)
    static func modificationStamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
