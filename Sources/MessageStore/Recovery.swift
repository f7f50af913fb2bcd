import AudioEngine
import Foundation
import Levels

extension MessageStore {
    /// Makes the database and the audio files agree after a crash, a kill or
    /// a hand-edited folder. Nothing is ever deleted:
    /// - `recording` rows nobody is recording any more are measured and
    ///   become `ready` (or `missing` when there is no audio);
    /// - audio files with no row are adopted as new messages (a symbolic
    ///   link to a file outside the store is not: it is named in the report);
    /// - rows whose file vanished become `missing`, and `ready` again when it
    ///   comes back;
    /// - levels that are absent or do not decode are measured again.
    /// Blocking (it may analyse files): the app runs it off the main thread.
    ///
    /// Opening stays cheap however many messages there are: interrupted
    /// recordings are found through the state index, and the files are only
    /// compared with the rows when the `messages/` folder changed since the
    /// last comparison (its modification time is kept in `meta`), or when
    /// `thorough` asks for it.
    @discardableResult
    public func recover(thorough: Bool = false) throws(StoreError) -> RecoveryReport {
        var report = recovery
        let folderStamp = Self.modificationStamp(messagesFolder.path)
        var lastStamp: String?
        try run("SELECT value FROM meta WHERE key = 'files_checked'") { lastStamp = $0.text(0) }
        let compareFiles = thorough || report.movedAsideDatabase != nil || lastStamp != folderStamp
        let all = try messages(where: compareFiles ? "1 = 1" : "state = 'recording'", [])
        var known = Set(all.map(\.fileName))

        for message in all {
            let path = audioPath(of: message)
            let partial = messagesFolder.appendingPathComponent(ImportCopy.prefix + message.fileName).path
            if !FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: partial),
               !ImportCopy.isHeld(partial) {
                Glibc.rename(partial, path)  // an import that stopped after its row was written
            }
            let exists = FileManager.default.fileExists(atPath: path)
            switch message.state {
            case .recording:
                guard !RecordingLock.isHeld(store: self, id: message.id) else { continue }
                unlink(messagesFolder.appendingPathComponent("\(message.id).lock").path)  // stale: its process is gone
                if exists { chmod(path, 0o600) }
                if exists, let analysis = try? Analyzer.analyze(path: path) {
                    try inTransaction {
                        try database.query("UPDATE messages SET state = 'ready', duration = ? WHERE id = ?",
                                           [.real(analysis.duration), .text(message.id)])
                        try storeLevels(message.id, analysis.levels)
                    }
                } else {
                    try run("UPDATE messages SET state = 'missing' WHERE id = ?", [.text(message.id)])
                }
                report.recoveredRecordings.append(message.id)
            case .ready where !exists:
                try run("UPDATE messages SET state = 'missing' WHERE id = ?", [.text(message.id)])
                report.markedMissing.append(message.id)
            case .missing where exists:
                try run("UPDATE messages SET state = 'ready' WHERE id = ?", [.text(message.id)])
                fallthrough
            case .ready, .missing, .deleted:
                if exists, try levels(of: message.id) == nil, let analysis = try? Analyzer.analyze(path: path) {
                    try inTransaction {
                        try database.query("UPDATE messages SET duration = ? WHERE id = ?",
                                           [.real(analysis.duration), .text(message.id)])
                        try storeLevels(message.id, analysis.levels)
                    }
                    report.recomputedLevels.append(message.id)
                }
            }
        }

        guard compareFiles else { return report }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: messagesFolder.path)) ?? []
        for name in files.sorted() where !known.contains(name) && !name.hasPrefix(".") && !name.hasSuffix(".lock") {
            let path = messagesFolder.appendingPathComponent(name).path
            // A recording or import begun while this pass ran (the app runs it
            // in the background) has a row by now, or holds its lock.
            let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
            if RecordingLock.isHeld(store: self, id: stem) { continue }
            if let rows = try? messages(where: "file_name = ?", [.text(name)]), !rows.isEmpty { continue }
            if Self.isLinkLeadingOutside(path, folder: messagesFolder.path) {
                report.linksLeftOut.append(name)
                continue
            }
            guard let analysis = try? Analyzer.analyze(path: path) else { continue }  // not audio: left alone
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
            let suffix = URL(fileURLWithPath: name).pathExtension.lowercased()
            let message = Message(id: UUID().uuidString.lowercased(), title: "Recovered recording",
                                  createdAt: modified, duration: analysis.duration, fileName: name,
                                  codec: suffix == "ogg" ? "opus" : (suffix.isEmpty ? "audio" : suffix),
                                  state: .ready, deletedAt: nil, playPosition: 0)
            try insert(message, levels: analysis.levels)
            known.insert(name)
            report.adoptedFiles.append(name)
        }
        // Stamped after the pass: what this pass itself changed in the folder
        // (nothing, or adopted files' rows only) needs no second look.
        try run("INSERT INTO meta (key, value) VALUES ('files_checked', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(Self.modificationStamp(messagesFolder.path))])
        return report
    }

    /// The folder's modification time to the nanosecond, as text.
    static func modificationStamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
