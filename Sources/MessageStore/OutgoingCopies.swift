import Foundation

/// Copies of messages handed to other apps by a drag or the clipboard. The
/// store's own files are never handed out (they are private, 0600, and named
/// by id); a receiver gets a readable file named after the title, in the
/// user's cache, kept a day so that a paste some time later still finds it.
extension MessageStore {
    /// `$XDG_CACHE_HOME/hark/outgoing` (default `$HOME/.cache/hark/outgoing`).
    public static var outgoingFolder: URL {
        XDGDirectories().cacheHome.appendingPathComponent("hark/outgoing")
    }

    /// How long an outgoing copy is kept.
    public static let outgoingLifetime: TimeInterval = 24 * 60 * 60

    /// A readable copy (0644 under the usual umask) of a message's audio,
    /// unchanged, named after its title (`Dentist on Monday.ogg`); made anew
    /// each time, so a renamed message hands out its new name.
    public func outgoingCopy(_ id: String, in outgoing: URL = outgoingFolder) throws(StoreError) -> String {
        let title = try message(id).title
        let source = try exportSource(id)
        let folder = outgoing.appendingPathComponent(id)
        do {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .file(path: folder.path, detail: error.localizedDescription)
        }
        let name = ExportName.forTitle(title, fileExtension: URL(fileURLWithPath: source).pathExtension)
        let path = folder.appendingPathComponent(name).path
        // The message's own bytes, unchanged, whatever they are (never a
        // conversion: the copy is made on the main thread, at a drag's start).
        try ExportWriter.write(to: path, overwrite: true) { file throws(StoreError) in try file.copy(from: source) }
        return path
    }

    /// Removes outgoing copies older than their lifetime (any thread).
    public static func pruneOutgoingCopies(in folder: URL = outgoingFolder, now: Date = Date()) {
        guard let entries = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey]) else {
            return
        }
        for entry in entries {
            let modified = (try? entry.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? now
            if now.timeIntervalSince(modified) > outgoingLifetime { try? FileManager.default.removeItem(at: entry) }
        }
    }
}
