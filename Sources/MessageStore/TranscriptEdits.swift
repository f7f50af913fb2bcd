import Foundation

extension TranscriptSegment {
    /// The segments of a take cut to `kept` (seconds), timed in what is kept:
    /// those that end before it or start after it go (a false start cut off
    /// takes its words along), those across an edge stay, clamped to it.
    static func kept(_ segments: [TranscriptSegment], within kept: ClosedRange<Double>) -> [TranscriptSegment] {
        let length = kept.upperBound - kept.lowerBound
        return segments.compactMap { segment in
            guard segment.end > kept.lowerBound, segment.start < kept.upperBound else { return nil }
            return TranscriptSegment(start: max(0, segment.start - kept.lowerBound),
                                     end: min(length, segment.end - kept.lowerBound), text: segment.text)
        }
    }
}

/// A take's transcript follows its audio when the audio changes (a draft cut
/// to its handles, a take recorded on): the words sent with it are the words
/// of what is sent.
extension MessageStore {
    /// Take `id` was cut to `kept`: its transcript keeps the segments said there.
    func cutTranscript(_ id: String, to kept: ClosedRange<Double>) throws(SQLiteError) {
        guard let (state, segments) = try localTranscript(id), state == .done else { return }
        try setLocalTranscript(id, TranscriptSegment.kept(segments, within: kept))
    }

    /// Take `next` was recorded on after take `id` (lasting `offset` seconds)
    /// and joined to it: with both transcribed, the two transcripts one after
    /// the other; otherwise the whole take is transcribed again (queued, when
    /// transcription is on or it was queued already: a run on the first part
    /// alone is dropped as it ends, see `storeTranscript`).
    func joinTranscript(_ id: String, then next: String, offset: Double) throws(SQLiteError) {
        guard let first = try localTranscript(id) else { return }
        if first.state == .done || first.state == .empty, let second = try localTranscript(next),
           second.state == .done || second.state == .empty {
            let moved = second.segments.map { TranscriptSegment(start: $0.start + offset, end: $0.end + offset, text: $0.text) }
            return try setLocalTranscript(id, first.segments + moved)
        }
        try database.query("""
            UPDATE messages SET transcript = NULL, transcript_segments = NULL, transcript_words = NULL,
                transcript_error = NULL, transcript_source = NULL,
                transcript_state = CASE WHEN transcript_state = 'queued' THEN 'queued' ELSE ? END
            WHERE id = ?
            """, [arrivingTranscriptState == .queued ? .text("queued") : .null, .text(id)])
    }

    /// A transcript made here (or waiting to be): its state and segments; nil for none or a sender's.
    private func localTranscript(_ id: String) throws(SQLiteError) -> (state: TranscriptState, segments: [TranscriptSegment])? {
        var found: (state: TranscriptState, segments: [TranscriptSegment])?
        try database.query("""
            SELECT transcript_state, transcript_segments FROM messages
            WHERE id = ? AND transcript_state IS NOT NULL AND transcript_source IS NOT 'sender'
            """, [.text(id)]) { row in
            let segments = row.text(1).flatMap { try? JSONDecoder().decode([TranscriptSegment].self, from: Data($0.utf8)) }
            found = (TranscriptState(rawValue: row.text(0) ?? "") ?? .none, segments ?? [])
        }
        return found
    }

    private func setLocalTranscript(_ id: String, _ segments: [TranscriptSegment]) throws(SQLiteError) {
        let text = Self.transcriptText(of: segments)
        let json = (try? JSONEncoder().encode(segments)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        try database.query("""
            UPDATE messages SET transcript = ?, transcript_segments = ?, transcript_state = ?, transcript_words = ?,
                transcript_source = 'local'
            WHERE id = ?
            """, [.text(text), .text(json), .text(text.isEmpty ? "empty" : "done"),
                  text.isEmpty ? .null : .text(NumberWords.searchWords(for: text)), .text(id)])
    }
}
