import Foundation
import Levels
import Localization

extension MessageStore {
    /// Compares every row with the files in `messages/`: adopts audio files
    /// no row names (not a symbolic link to a file outside the store: it is
    /// named in `linksLeftOut`), marks rows whose file vanished `missing` (and `ready`
    /// again when it is back), finishes imports whose row was written but
    /// whose copy was not moved into place, removes the hidden copies of
    /// imports killed before their row and the new audio of cuts and joins
    /// killed before it replaced their take's, and measures again levels that are
    /// absent or do not decode.
    ///
    /// Only when the folder changed since the last comparison other than by
    /// Hark's own writes (`filesChangedSinceComparison`), when the database
    /// was rebuilt, or when `thorough` asks; the report's `comparedFiles`
    /// says whether it did. It may take a while with many messages (one
    /// listing of the folder and one pass over the rows' names; the levels
    /// are judged by their size in SQL, no blob is read), so callers run it
    /// after what the user is waiting for: the CLI after its page or once
    /// recording has begun, the app in the background. `analyze` measures an
    /// audio file (see `recover`).
    @discardableResult
    public func compareFiles(thorough: Bool = false, analyze: (String) throws -> Analysis) throws(StoreError) -> RecoveryReport {
        var report = RecoveryReport()
        let folderPath = messagesFolder.path
        let start = Self.modificationStamp(folderPath)
        var stamped: String?
        try run("SELECT value FROM meta WHERE key = 'files_checked'") { stamped = $0.text(0) }
        guard thorough || recovery.movedAsideDatabase != nil || stamped != start else { return report }
        report.comparedFiles = true
        // This pass's own renames and removals, noted as Hark's.
        var changes = OwnFolderChanges(folder: folderPath, from: start)

        let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
        let present = Set(names)
        var rows: [(id: String, fileName: String, state: MessageState, title: String)] = []
        try run("SELECT id, file_name, state, title FROM messages") { row in
            rows.append((row.text(0) ?? "", row.text(1) ?? "", MessageState(rawValue: row.text(2) ?? "") ?? .missing,
                         row.text(3) ?? ""))
        }
        var known = Set(rows.map(\.fileName))
        changes.make {
            ImportCopy.removeAbandoned(in: folderPath, names: names) { known.contains($0) }
        }
        changes.make { AudioReplacement.removeAbandoned(in: folderPath, names: names) }

        for row in rows where row.state != .recording {
            // Looked at again when the listing lacks it: an import may have
            // put its file in place between the listing and the rows' reading.
            var exists = present.contains(row.fileName) || FileManager.default.fileExists(atPath: folderPath + "/" + row.fileName)
            let partial = ImportCopy.prefix + row.fileName
            if !exists, present.contains(partial), !ImportCopy.isHeld(folderPath + "/" + partial) {
                // An import that stopped after its row was written.
                changes.make { _ = Glibc.rename(folderPath + "/" + partial, folderPath + "/" + row.fileName) }
                exists = FileManager.default.fileExists(atPath: folderPath + "/" + row.fileName)
            }
            switch row.state {
            case .ready where !exists:
                try run("UPDATE messages SET state = 'missing' WHERE id = ?", [.text(row.id)])
                report.markedMissing.append(row.id)
                report.missingTitles.append(row.title)
            case .missing where exists:
                try run("UPDATE messages SET state = 'ready' WHERE id = ?", [.text(row.id)])
            default:
                break
            }
        }
        try measureUnreadableLevels(&report, analyze: analyze)

        let strangers = names.filter { !known.contains($0) && !$0.hasPrefix(".") && !$0.hasSuffix(".lock") }
        for name in strangers.sorted() {
            let path = folderPath + "/" + name
            // A recording or import begun while this pass ran (the app runs it
            // in the background) has a row by now, or holds its lock.
            let stem = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
            if RecordingLock.isHeld(store: self, id: stem) { continue }
            if let rows = try? messages(where: "file_name = ?", [.text(name)]), !rows.isEmpty { continue }
            if Self.isLinkLeadingOutside(path, folder: folderPath) {
                report.linksLeftOut.append(name)
                continue
            }
            guard let analysis = try? analyze(path) else { continue }  // not audio: left alone
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
            let suffix = URL(fileURLWithPath: name).pathExtension.lowercased()
            let message = Message(id: UUID().uuidString.lowercased(), title: tr("Recovered recording"),
                                  createdAt: modified, duration: analysis.duration, fileName: name,
                                  codec: suffix == "ogg" ? "opus" : (suffix.isEmpty ? "audio" : suffix),
                                  state: .ready, deletedAt: nil, playPosition: 0)
            try insert(message, levels: analysis.levels)
            known.insert(name)
            report.adoptedFiles.append(name)
        }
        // The folder as this pass found it, or as its own changes left it if
        // nothing else came between: a change made meanwhile by anyone else
        // is looked at next time.
        let compared = changes.unbroken ? changes.last ?? start : start
        try run("INSERT INTO meta (key, value) VALUES ('files_checked', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.text(compared)])
        return report
    }

    /// Measures again the messages (not recording) whose levels are absent or
    /// cannot decode (another encoding, an odd number of bytes), when their
    /// file is there. Found in SQL from the blobs' sizes alone.
    private func measureUnreadableLevels(_ report: inout RecoveryReport, analyze: (String) throws -> Analysis) throws(StoreError) {
        var unreadable: [(id: String, fileName: String)] = []
        try run("""
            SELECT m.id, m.file_name FROM messages m LEFT JOIN levels l ON l.message_id = m.id
            WHERE m.state != 'recording' AND (l.message_id IS NULL OR l.encoding != ?
                  OR typeof(l.data) != 'blob' OR length(l.data) % 2 != 0)
            """, [.text(LevelEncoding.name)]) { unreadable.append(($0.text(0) ?? "", $0.text(1) ?? "")) }
        for (id, fileName) in unreadable {
            let path = messagesFolder.appendingPathComponent(fileName).path
            guard FileManager.default.fileExists(atPath: path), let analysis = try? analyze(path) else { continue }
            try inTransaction {
                try database.query("UPDATE messages SET duration = ? WHERE id = ?", [.real(analysis.duration), .text(id)])
                try storeLevels(id, analysis.levels)
            }
            report.recomputedLevels.append(id)
        }
    }
}
