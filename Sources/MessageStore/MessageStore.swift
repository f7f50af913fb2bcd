import Foundation
import Levels
import Localization

/// Hark's messages: an SQLite database and one audio file per message, in
/// `$XDG_DATA_HOME/hark/` (folders 0700, files 0600).
///
/// The database runs in WAL mode with `synchronous=NORMAL`: a committed
/// transaction survives a crash or kill of the app (the WAL is in the OS's
/// hands once written); a power loss may lose the last transactions before a
/// checkpoint, never the database's consistency. Audio files are written
/// before the rows that point at them, and recovery reconciles the two.
public final class MessageStore {
    public let folder: URL
    public var messagesFolder: URL { folder.appendingPathComponent("messages") }
    public var databasePath: String { folder.appendingPathComponent("hark.sqlite3").path }
    /// What opening had to repair, for the user to be told.
    public internal(set) var recovery = RecoveryReport()
    /// How many times a statement met damage after the store was opened and
    /// the database was salvaged, and what the last such salvage saved: the
    /// window announces each (one found at opening is in `recovery`).
    public internal(set) var salvagesSinceOpening = 0
    public internal(set) var latestSalvage: RecoveryReport?
    /// How many times the store moved to another database file since it was
    /// opened: its own salvages, and another process's it followed.
    public internal(set) var databaseSwitches = 0

    var database: Database
    /// Whether changes can be made, or the store was opened for reading only.
    public internal(set) var access: StoreAccess
    /// The database file this store opened (its inode): a salvage finding a
    /// different file at the path knows another process salvaged already.
    var databaseFile: ino_t?

    /// Opens (creating if needed) the store in `folder`. A damaged database
    /// (its messages fail a quick check, or it is not recognised as a
    /// database) is moved aside, kept, and replaced by a new one holding every
    /// row it still reads; `recover` adopts the audio files no row names.
    /// A store that cannot be written (a read-only folder, a full disk) is
    /// opened for reading: `access` says so, and every change is refused with
    /// a sentence naming why, changing nothing. `checkingForDamage: false`
    /// leaves the quick check (it reads the whole table) to `checkForDamage`,
    /// for a caller that runs it after its page.
    public init(folder: URL = MessageStore.defaultFolder, checkingForDamage: Bool = true) throws(StoreError) {
        self.folder = folder
        try Self.makePrivateFolder(folder)
        try Self.makePrivateFolder(folder.appendingPathComponent("messages"))
        let path = folder.appendingPathComponent("hark.sqlite3").path
        var report = RecoveryReport()
        (database, access) = try Self.openConnection(at: path, in: folder, checkingForDamage: checkingForDamage,
                                                     report: &report)
        databaseFile = Self.fileNumber(path)
        recovery = report
        guard access == .readWrite else { return }
        chmod(path, 0o600)
        // Hidden copies left by killed imports are removed by `compareFiles`.
    }

    // MARK: Reading

    /// The ids of the messages a history shows (neither deleted nor still
    /// recording), oldest first. Cheap even for many thousands: no row is
    /// decoded beyond its id.
    public func shownIDs(in scope: HistoryScope = .recordings) throws(StoreError) -> [String] {
        try shownTimes(matching: nil, in: scope).map(\.id)
    }

    /// The ids of the shown messages that match `query`, oldest first, as
    /// `shownIDs`: title words through the full-text index, the day through
    /// the time index; no title is read in Swift.
    public func searchIDs(_ query: SearchQuery, in scope: HistoryScope = .recordings) throws(StoreError) -> [String] {
        try shownTimes(matching: query, in: scope).map(\.id)
    }

    /// The shown messages' ids and times (for grouping them by day), oldest
    /// first, all or those matching `query`. A message's time is when it was
    /// recorded (received, imported), except in a room it was sent into:
    /// there it is when it was sent (queued, or retried by the user), as the
    /// others in the room see it, not when it was recorded. `newest`: only
    /// that many, the last of the list (still oldest first).
    public func shownTimes(matching query: SearchQuery?, in scope: HistoryScope = .recordings,
                           newest: Int? = nil) throws(StoreError) -> [(id: String, time: Date)] {
        var clauses = ["state NOT IN ('deleted', 'recording')"]
        var values: [SQLValue] = []
        var time = "created_at"
        var timeValues: [SQLValue] = []
        switch scope {
        case .all:
            break
        case .recordings:
            clauses.append("origin != 'received'")
        case .room(let roomID):
            clauses.append("(room_id = ? OR id IN (SELECT message_id FROM outbox WHERE room_id = ?))")
            values += [.text(roomID), .text(roomID)]
            time = """
                coalesce((SELECT min(coalesce(waiting_since, queued_at)) FROM outbox
                          WHERE message_id = messages.id AND room_id = ?), created_at)
                """
            timeValues = [.text(roomID)]
        }
        if let text = query?.fullTextQuery {
            clauses.append("rowid IN (SELECT rowid FROM messages_search WHERE messages_search MATCH ?)")
            values.append(.text(text))
        }
        if let query, !query.periods.isEmpty {
            // From the day named, or with its words in the title: either.
            var either = query.periods.map { _ in "(\(time) >= ? AND \(time) < ?)" }
            for period in query.periods {
                values += timeValues + [.real(period.lowerBound.timeIntervalSince1970)]
                    + timeValues + [.real(period.upperBound.timeIntervalSince1970)]
            }
            if let dayText = query.dayWordsQuery {
                either.append("rowid IN (SELECT rowid FROM messages_search WHERE messages_search MATCH ?)")
                values.append(.text(dayText))
            }
            clauses.append("(" + either.joined(separator: " OR ") + ")")
        }
        var found: [(id: String, time: Date)] = []
        var sql = "SELECT id, \(time) AS shown_time FROM messages WHERE \(clauses.joined(separator: " AND "))"
        if let newest {
            sql = "SELECT * FROM (\(sql) ORDER BY shown_time DESC, id LIMIT ?)"
            values.append(.integer(Int64(newest)))
        }
        try run(sql + " ORDER BY shown_time, id DESC", timeValues + values) {
            found.append((id: $0.text(0) ?? "", time: Date(timeIntervalSince1970: $0.real(1))))
        }
        return found
    }

    /// A number that changes whenever another connection (another `hark`,
    /// the background recovery) commits a change; this connection's own
    /// changes leave it as it is. Cheap: no table is read.
    public func outsideChangeCounter() -> Int {
        var version = 0
        try? run("PRAGMA data_version") { version = Int($0.integer(0)) }
        return version
    }

    public func message(_ id: String) throws(StoreError) -> Message {
        guard let found = try messages(where: "id = ?", [.text(id)]).first else { throw .noSuchMessage(id) }
        return found
    }

    /// The cached levels of a message (nil when none are stored or readable).
    public func levels(of id: String) throws(StoreError) -> LevelTrack? {
        var track: LevelTrack?
        try run("SELECT interval_ms, encoding, data FROM levels WHERE message_id = ?", [.text(id)]) { row in
            guard row.text(1) == LevelEncoding.name else { return }
            track = LevelEncoding.decodeTrack(row.blob(2), intervalMilliseconds: Int(row.integer(0)))
        }
        return track
    }

    /// Where a message's audio is.
    public func audioPath(of message: Message) -> String {
        messagesFolder.appendingPathComponent(message.fileName).path
    }

    // MARK: Recording

    /// Creates the row of a recording about to start (state `recording`), so
    /// that a crash leaves a row to recover. Record into `audioPath(of:)`.
    /// `roomID`: the Matrix room the take is recorded into (it is sent there once saved).
    public func beginRecording(title: String? = nil, at date: Date = Date(),
                               voiceProcessed: Bool? = nil, roomID: String? = nil) throws(StoreError) -> Message {
        try checkWritable()
        let id = UUID().uuidString.lowercased()
        let message = Message(id: id, title: title ?? Self.defaultTitle, createdAt: date, duration: 0,
                              fileName: "\(id).ogg", codec: "opus", state: .recording, deletedAt: nil, playPosition: 0,
                              voiceProcessed: voiceProcessed, roomID: roomID, titleTyped: title != nil)
        try insert(message, levels: nil)
        return message
    }

    /// Marks a recording done, with its duration and levels (the waveform).
    public func finishRecording(_ id: String, duration: Double, levels: LevelTrack) throws(StoreError) {
        try inTransaction {
            try database.query("UPDATE messages SET state = 'ready', duration = ? WHERE id = ?", [.real(duration), .text(id)])
            guard database.changes == 1 else { throw StoreError.noSuchMessage(id) }
            try queueArrived(id)
            try storeLevels(id, levels)
        }
        chmod(audioPath(of: try message(id)), 0o600)
    }

    /// Forgets a recording that produced nothing (no microphone…): its row
    /// and whatever file it began. Only for `recording` rows.
    public func discardRecording(_ id: String) throws(StoreError) {
        let message = try message(id)
        guard message.state == .recording else { return }
        try checkWritable()
        try run("DELETE FROM messages WHERE id = ? AND state = 'recording'", [.text(id)])
        changingFolder { try? FileManager.default.removeItem(atPath: audioPath(of: message)) }
    }

    // MARK: Importing

    /// Copies an audio file into the store, unchanged, with the levels an
    /// analysis of it found: the store analyses nothing itself (StoreAudio's
    /// `importFile(_:title:)` analyses first; the app off the main thread, with progress).
    public func importFile(_ path: String, title: String? = nil, analysis: Analysis) throws(StoreError) -> Message {
        try checkWritable()
        let id = UUID().uuidString.lowercased()
        let suffix = ImportName.fileExtension(forFileAt: path)
        let fileName = suffix.isEmpty ? id : "\(id).\(suffix)"
        let target = messagesFolder.appendingPathComponent(fileName).path
        // Copied under a hidden name first, renamed once the row exists: a
        // crash in between leaves either nothing visible or a row whose file
        // recovery finishes moving into place — never an orphan to adopt twice.
        // Hark's own changes to the folder: the next open need not compare it.
        var changes = ownChanges()
        defer { noteOwn(changes) }
        let partial = messagesFolder.appendingPathComponent(ImportCopy.prefix + fileName).path
        let copy = try changes.make { () throws(StoreError) -> ImportCopy in try ImportCopy(creating: partial) }
        do { try copy.fill(from: path) } catch {
            changes.make { copy.discard() }
            throw error
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let created = (attributes?[.modificationDate] as? Date) ?? Date()
        let message = Message(id: id, title: title ?? ImportName.title(forFileAt: path),
                              createdAt: created, duration: analysis.duration, fileName: fileName,
                              codec: suffix.isEmpty ? "audio" : suffix, state: .ready, deletedAt: nil, playPosition: 0,
                              origin: .imported, titleTyped: title != nil,
                              transcriptState: arrivingTranscriptState)
        do {
            try insert(message, levels: analysis.levels)
        } catch {
            changes.make { copy.discard() }
            throw error
        }
        if !changes.make({ copy.move(to: target) }) {
            throw .file(path: target, detail: tr("could not be moved into place"))
        }
        return message
    }

    // MARK: Managing

    public func rename(_ id: String, to title: String) throws(StoreError) {
        try update("UPDATE messages SET title = ?, title_typed = 1 WHERE id = ?", [.text(title), .text(id)], id)
    }

    /// Deletes softly: hidden from the list, undoable until purged.
    public func delete(_ id: String, at date: Date = Date()) throws(StoreError) {
        try update("UPDATE messages SET state = 'deleted', deleted_at = ? WHERE id = ? AND state != 'deleted'",
                   [.real(date.timeIntervalSince1970), .text(id)], id)
    }

    public func undelete(_ id: String) throws(StoreError) {
        let restored: MessageState = FileManager.default.fileExists(atPath: audioPath(of: try message(id))) ? .ready : .missing
        try update("UPDATE messages SET state = ?, deleted_at = NULL WHERE id = ? AND state = 'deleted'",
                   [.text(restored.rawValue), .text(id)], id)
    }

    /// Removes a deleted message for good: its row, its levels, its file.
    public func purge(_ id: String) throws(StoreError) {
        let message = try message(id)
        guard message.state == .deleted else { return }
        try checkWritable()  // or the file would go and its row stay
        // The file first: a file without its row would be adopted back by recovery.
        changingFolder { try? FileManager.default.removeItem(atPath: audioPath(of: message)) }
        try run("DELETE FROM messages WHERE id = ?", [.text(id)])
        try run("DELETE FROM downloads WHERE message_id = ?", [.text(id)])
    }

    public func setPlayPosition(_ id: String, _ seconds: Double) throws(StoreError) {
        try update("UPDATE messages SET play_position = ? WHERE id = ?", [.real(max(0, seconds)), .text(id)], id)
    }

    /// The audio file a message is exported from (it must exist).
    public func exportSource(_ id: String) throws(StoreError) -> String {
        let source = audioPath(of: try message(id))
        guard FileManager.default.fileExists(atPath: source) else {
            throw .file(path: source, detail: tr("the message's audio file is missing"))
        }
        return source
    }

    /// A new recording's title. Not its date and time: the history shows
    /// those beside every title (and under each day's header), whatever the
    /// title becomes.
    static var defaultTitle: String { tr("Voice message") }
}
