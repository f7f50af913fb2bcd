import Foundation

/// Transcripts that came with their message: the words its sender sent
/// inside the voice event (the caption). They are the message's transcript
/// as the engine's would be (shown, searched, listed), marked `sender`, and
/// the queue passes over them: the engine is never run for such a message
/// unless the user asks for it by name.
extension MessageStore {
    /// Keeps `text` as message `id`'s transcript, its sender's: one segment
    /// over the whole message, and no title taken from it.
    public func storeSenderTranscript(_ id: String, text: String) throws(StoreError) {
        try checkWritable()
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty else { return }
        let duration = try message(id).duration
        let segments = [TranscriptSegment(start: 0, end: max(0, duration), text: words)]
        let json = (try? JSONEncoder().encode(segments)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        try update("""
            UPDATE messages SET transcript = ?, transcript_segments = ?, transcript_state = 'done',
                transcript_words = ?, transcript_error = NULL, transcript_source = 'sender'
            WHERE id = ?
            """, [.text(words), .text(json), .text(NumberWords.searchWords(for: words)), .text(id)], id)
    }

    /// The words a message goes out with when sent with its transcript: its
    /// transcript's text, nil when it has none (not made yet, failed, or nothing was said).
    public func transcriptToSend(of id: String) throws(StoreError) -> String? {
        let message = try message(id)
        guard message.transcriptState == .done, let text = message.transcript?
            .trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
