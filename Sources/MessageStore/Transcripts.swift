import Foundation

/// One stretch of a transcript, with its times in the audio (seconds).
public struct TranscriptSegment: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var text: String

    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// Transcripts and their queue, kept in the messages' rows (see migration 8):
/// the queue is every `queued` row, newest first, so it survives a restart.
extension MessageStore {
    /// The settings that turn transcription on and choose its language.
    public static let transcriptionSetting = "transcription"
    public static let transcriptionLanguageSetting = "transcription.language"

    /// Whether new messages (recorded, imported, or received once their
    /// audio is downloaded) are queued as they are saved.
    public var transcribesNewMessages: Bool { setting(Self.transcriptionSetting) == "on" }

    /// The transcript state a message gets as it arrives. Every way a message
    /// comes in (`finishRecording`, `importFile`, `adoptDownload`, a recording
    /// recovered after a crash) goes through this or `queueArrived`, so that
    /// all queue alike.
    var arrivingTranscriptState: TranscriptState { transcribesNewMessages ? .queued : .none }

    /// Queues a message that has just arrived (its audio now here) when
    /// transcription is on; one already queued, done or failed is left as it is.
    func queueArrived(_ id: String) throws(SQLiteError) {
        guard arrivingTranscriptState == .queued else { return }
        try database.query("UPDATE messages SET transcript_state = 'queued' WHERE id = ? AND transcript_state IS NULL",
                           [.text(id)])
    }

    /// The language asked of the engine: "en", "auto", or a language's code.
    public var transcriptionLanguage: String { setting(Self.transcriptionLanguageSetting) ?? "en" }

    /// Queues messages for transcription. `again`: also those already done
    /// (a user's explicit "Transcribe"); otherwise only those never done or failed.
    public func queueTranscription(_ ids: [String], again: Bool = true) throws(StoreError) {
        try checkWritable()
        for id in ids {
            _ = try message(id)
            try run("""
                UPDATE messages SET transcript_state = 'queued', transcript_error = NULL
                WHERE id = ? AND state != 'deleted' AND (? OR transcript_state IS NULL OR transcript_state = 'failed')
                """, [.text(id), .integer(again ? 1 : 0)])
        }
    }

    /// Queues every message without a transcript (never asked for, failed,
    /// or already waiting in the queue), except received ones still without
    /// their audio; returns their ids, newest first.
    @discardableResult
    public func queueAllUntranscribed() throws(StoreError) -> [String] {
        try checkWritable()
        var ids: [String] = []
        try run("""
            SELECT id FROM messages WHERE state = 'ready'
                AND (transcript_state IS NULL OR transcript_state IN ('failed', 'queued'))
            ORDER BY created_at DESC
            """) { ids.append($0.text(0) ?? "") }
        try queueTranscription(ids, again: false)
        return ids
    }

    /// The newest queued message whose audio is there, or nil when none waits.
    public func nextQueuedTranscription() throws(StoreError) -> Message? {
        try messages(where: "transcript_state = 'queued' AND state = 'ready' ORDER BY created_at DESC LIMIT 1", []).first
    }

    /// How many messages wait in the queue.
    public func queuedTranscriptionCount() throws(StoreError) -> Int {
        var count = 0
        try run("SELECT count(*) FROM messages WHERE transcript_state = 'queued' AND state = 'ready'") {
            count = Int($0.integer(0))
        }
        return count
    }

    /// Keeps a transcript the engine made here (`empty` when nothing was
    /// said). A message whose title is still a default takes the first words
    /// as its title. `madeFrom`: the audio the engine was given; when the
    /// message's audio was replaced since (a take cut or recorded on while it
    /// was being transcribed), the words are of audio that is gone: they are
    /// dropped, the message stays as the replacement left it (queued for
    /// the new audio, or with its transcript already made to follow), and
    /// this returns false.
    @discardableResult
    public func storeTranscript(_ id: String, segments: [TranscriptSegment],
                                madeFrom audio: AudioIdentity? = nil) throws(StoreError) -> Bool {
        try checkWritable()
        let text = Self.transcriptText(of: segments)
        let json = (try? JSONEncoder().encode(segments)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        let title = TitleFromWords.title(from: text)
        var current = true
        try inTransaction {
            // Looked at inside the transaction: a replacement's rename comes before its own transaction.
            current = try audioIsStill(audio, of: id)
            guard current else { return }
            try database.query("""
                UPDATE messages SET transcript = ?, transcript_segments = ?, transcript_state = ?,
                    transcript_words = ?, transcript_error = NULL, transcript_source = 'local',
                    title = CASE WHEN title_typed = 0 AND ? IS NOT NULL THEN ? ELSE title END
                WHERE id = ?
                """, [.text(text), .text(json), .text(text.isEmpty ? "empty" : "done"),
                      text.isEmpty ? .null : .text(NumberWords.searchWords(for: text)),
                      .optionalText(title), .optionalText(title), .text(id)])
            guard database.changes == 1 else { throw StoreError.noSuchMessage(id) }
        }
        return current
    }

    /// Marks a message's transcription failed (the helper's error, its crash,
    /// or a hang past the deadline), with the reason. `madeFrom`: as for
    /// `storeTranscript`, a failure on audio since replaced is dropped (false).
    @discardableResult
    public func markTranscriptFailed(_ id: String, reason: String, madeFrom audio: AudioIdentity? = nil) throws(StoreError) -> Bool {
        var current = true
        try checkWritable()
        try inTransaction {
            current = try audioIsStill(audio, of: id)
            guard current else { return }
            try database.query("UPDATE messages SET transcript_state = 'failed', transcript_error = ? WHERE id = ?",
                               [.text(reason), .text(id)])
            guard database.changes == 1 else { throw StoreError.noSuchMessage(id) }
        }
        return current
    }

    /// Why a message's transcription failed, when it did.
    public func transcriptError(of id: String) throws(StoreError) -> String? {
        var reason: String?
        try run("SELECT transcript_error FROM messages WHERE id = ?", [.text(id)]) { reason = $0.text(0) }
        return reason
    }

    /// A message's transcript in segments with their times (none when not transcribed).
    public func transcriptSegments(of id: String) throws(StoreError) -> [TranscriptSegment] {
        var json: String?
        try run("SELECT transcript_segments FROM messages WHERE id = ?", [.text(id)]) { json = $0.text(0) }
        guard let data = json?.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([TranscriptSegment].self, from: data)) ?? []
    }
}

extension MessageStore {
    /// A transcript's text from its segments: each trimmed (the engine
    /// starts most with a space), one space between them, none where both
    /// sides are written without spaces (Chinese, Japanese, Thai).
    static func transcriptText(of segments: [TranscriptSegment]) -> String {
        func isUnspaced(_ character: Character) -> Bool {
            guard let value = character.unicodeScalars.first?.value else { return false }
            // With the scripts, their punctuation: 。、「」 and the full-width forms.
            return SearchText.isCutPerCharacter(character) || (0x3000...0x303F).contains(value) || (0xFF00...0xFFEF).contains(value)
        }
        var text = ""
        for segment in segments {
            let part = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !part.isEmpty else { continue }
            if let last = text.last, let first = part.first, !(isUnspaced(last) && isUnspaced(first)) {
                text += " "
            }
            text += part
        }
        return text
    }
}
