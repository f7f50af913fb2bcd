import Foundation

extension MessageStore {
    /// Calls `body` with each message that is not deleted, newest first, as
    /// SQLite reads it (none is kept: memory does not grow with the store),
    /// at most `limit` of them (all when nil). The newest-first index serves
    /// the order, so a short page reads only its own rows.
    public func eachListed(limit: Int? = nil, _ body: (Message) -> Void) throws(StoreError) {
        try eachMessage(where: "state != 'deleted' ORDER BY created_at DESC, id LIMIT ?",
                        [.integer(Int64(limit ?? -1))], body)
    }

    func eachMessage(where clause: String, _ values: [SQLValue], _ body: (Message) -> Void) throws(StoreError) {
        try run("""
            SELECT id, title, created_at, duration, file_name, codec, state, deleted_at, play_position, voice_processed,
                   origin, room_id, sender, event_id, media_url, unread, title_typed, transcript, transcript_state,
                   (SELECT failure FROM downloads WHERE message_id = messages.id AND permanent = 1),
                   encrypted, unverified_device,
                   (SELECT held_since FROM undecrypted_events WHERE message_id = messages.id),
                   (SELECT withheld FROM undecrypted_events WHERE message_id = messages.id),
                   (SELECT gave_up FROM undecrypted_events WHERE message_id = messages.id),
                   (SELECT refusal FROM undecrypted_events WHERE message_id = messages.id),
                   transcript_source
            FROM messages WHERE \(clause)
            """, values) { row in
            body(Message(
                id: row.text(0) ?? "", title: row.text(1) ?? "",
                createdAt: Date(timeIntervalSince1970: row.real(2)), duration: row.real(3),
                fileName: row.text(4) ?? "", codec: row.text(5) ?? "",
                state: MessageState(rawValue: row.text(6) ?? "") ?? .missing,
                deletedAt: row.isNull(7) ? nil : Date(timeIntervalSince1970: row.real(7)),
                playPosition: row.real(8),
                voiceProcessed: row.isNull(9) ? nil : row.integer(9) != 0,
                origin: MessageOrigin(rawValue: row.text(10) ?? "") ?? .recorded,
                roomID: row.text(11), sender: row.text(12), eventID: row.text(13), mediaURL: row.text(14),
                unread: row.integer(15) != 0, titleTyped: row.integer(16) != 0, transcript: row.text(17),
                transcriptState: TranscriptState(rawValue: row.text(18) ?? "") ?? .none,
                transcriptSource: row.text(26).flatMap(TranscriptSource.init(rawValue:)),
                downloadFailure: row.text(19), encrypted: row.integer(20) != 0, unverifiedDevice: row.integer(21) != 0,
                undecrypted: row.isNull(22) ? nil : Undecrypted(heldSince: Date(timeIntervalSince1970: row.real(22)),
                                                                withheld: row.text(23), gaveUp: row.integer(24) != 0,
                                                                refusal: row.text(25))))
        }
    }
}
