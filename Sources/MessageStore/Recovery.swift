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
    /// Two parts, which callers in a hurry run apart:
    /// `recoverInterruptedRecordings` (cheap: the state index) and
    /// `compareFiles` (every row against the folder, only when `messages/`
    /// changed other than by Hark's own writes, or when `thorough` asks).
    /// `analyze` measures an audio file (the store drives no GStreamer: StoreAudio
    /// passes AudioEngine's Analyzer); a file it fails on is taken for no audio.
    @discardableResult
    public func recover(thorough: Bool = false, analyze: (String) throws -> Analysis) throws(StoreError) -> RecoveryReport {
        var report = recovery
        report.recoveredRecordings = try recoverInterruptedRecordings(analyze: analyze).recoveredRecordings
        let compared = try compareFiles(thorough: thorough, analyze: analyze)
        report.comparedFiles = compared.comparedFiles
        report.adoptedFiles = compared.adoptedFiles
        report.linksLeftOut = compared.linksLeftOut
        report.markedMissing = compared.markedMissing
        report.missingTitles = compared.missingTitles
        report.recomputedLevels = compared.recomputedLevels
        return report
    }

    /// The quick check of the messages table that opening makes unless told
    /// not to (it reads every row: 26 ms for 10,000 messages): a damaged
    /// database is salvaged as at opening, and `recovery` says so. Returns
    /// whether it was damaged.
    @discardableResult
    public func checkForDamage() throws(StoreError) -> Bool {
        guard access == .readWrite, !Self.looksSound(database) else { return false }  // read-only: checked at opening
        try replaceDamagedDatabase()
        return true
    }

    /// The recordings whose process died: measured and made `ready` (or
    /// `missing` without audio). Found through the state index, so it costs
    /// nothing however many messages there are; a live recording elsewhere
    /// (its lock held) is left alone.
    @discardableResult
    public func recoverInterruptedRecordings(analyze: (String) throws -> Analysis) throws(StoreError) -> RecoveryReport {
        var report = RecoveryReport()
        for message in try messages(where: "state = 'recording'", []) {
            guard !RecordingLock.isHeld(store: self, id: message.id) else { continue }
            let path = audioPath(of: message)
            changingFolder {  // stale: its process is gone
                _ = unlink(messagesFolder.appendingPathComponent("\(message.id).lock").path)
            }
            let exists = FileManager.default.fileExists(atPath: path)
            if exists { chmod(path, 0o600) }
            if exists, let analysis = try? analyze(path) {
                try inTransaction {
                    try database.query("UPDATE messages SET state = 'ready', duration = ? WHERE id = ?",
                                       [.real(analysis.duration), .text(message.id)])
                    try queueArrived(message.id)  // as Stop would have
                    try storeLevels(message.id, analysis.levels)
                }
            } else {
                try run("UPDATE messages SET state = 'missing' WHERE id = ?", [.text(message.id)])
            }
            report.recoveredRecordings.append(message.id)
        }
        return report
    }
}

extension MessageStore {
    /// A message whose audio file turned out to be gone when it was used (a
    /// play that failed): marked `missing` at once, as the next comparison
    /// of the folder would. Returns whether it was; a message whose file is
    /// there, or that is not `ready`, is left as it is.
    @discardableResult
    public func markMissingIfGone(_ id: String) throws(StoreError) -> Bool {
        let message = try message(id)
        guard message.state == .ready, !FileManager.default.fileExists(atPath: audioPath(of: message)) else { return false }
        try checkWritable()
        try run("UPDATE messages SET state = 'missing' WHERE id = ? AND state = 'ready'", [.text(id)])
        return database.changes > 0
    }
}
