import Foundation
import Levels
import Localization

/// A voice or audio message that arrived in a room, before its audio is here.
public struct IncomingAudio: Sendable, Equatable {
    public var eventID: String
    public var roomID: String
    public var sender: String
    public var title: String
    public var sentAt: Date
    /// Seconds, as the event says (0 when it does not).
    public var duration: Double
    /// The audio file's extension ("ogg", "mp3"…), from its type or name.
    public var fileExtension: String
    public var mediaURL: String
    /// The waveform the event carries, shown until Hark has analysed the audio itself.
    public var levels: LevelTrack?
    public var unread: Bool
    /// The file's size as the event announces it (`info.size`), if it does.
    public var announcedSize: Int?
    /// It came end-to-end encrypted.
    public var encrypted: Bool
    /// It came from a device its owner has not cross-signed.
    public var unverifiedDevice: Bool
    /// The words its sender sent with it (the event's caption): its transcript, the sender's.
    public var senderTranscript: String?

    public init(eventID: String, roomID: String, sender: String, title: String, sentAt: Date, duration: Double,
                fileExtension: String, mediaURL: String, levels: LevelTrack?, unread: Bool, announcedSize: Int? = nil,
                encrypted: Bool = false, unverifiedDevice: Bool = false, senderTranscript: String? = nil) {
        self.eventID = eventID
        self.roomID = roomID
        self.sender = sender
        self.title = title
        self.sentAt = sentAt
        self.duration = duration
        self.fileExtension = fileExtension
        self.mediaURL = mediaURL
        self.levels = levels
        self.unread = unread
        self.announcedSize = announcedSize
        self.encrypted = encrypted
        self.unverifiedDevice = unverifiedDevice
        self.senderTranscript = senderTranscript
    }
}

extension MatrixTables {
    /// Whether a message with this event is in the store (received, or sent by Hark).
    public func hasEvent(_ eventID: String) throws(StoreError) -> Bool {
        var found = false
        try store.run("SELECT 1 FROM messages WHERE event_id = ? UNION ALL SELECT 1 FROM outbox WHERE event_id = ? LIMIT 1",
                [.text(eventID), .text(eventID)]) { _ in found = true }
        return found
    }

    /// Adds a received message (its audio still to be downloaded: `missing`
    /// with its media address); nil when its event is in the store already.
    /// The row that stood for it while it could not be decrypted becomes it
    /// (the same id: the history's row turns into the voice message).
    @discardableResult
    public func receive(_ incoming: IncomingAudio) throws(StoreError) -> Message? {
        try store.checkWritable()
        if let waiting = try undecryptedMessage(eventID: incoming.eventID) { return try resolve(waiting, as: incoming) }
        guard try !hasEvent(incoming.eventID) else { return nil }
        let id = UUID().uuidString.lowercased()
        let suffix = incoming.fileExtension.isEmpty ? "audio" : incoming.fileExtension
        var message = Message(id: id, title: ReceivedText.cleaned(incoming.title), createdAt: incoming.sentAt, duration: incoming.duration,
                              fileName: "\(id).\(suffix)", codec: suffix, state: .missing, deletedAt: nil,
                              playPosition: 0, origin: .received, roomID: incoming.roomID, sender: incoming.sender,
                              eventID: incoming.eventID, mediaURL: incoming.mediaURL, unread: incoming.unread)
        message.encrypted = incoming.encrypted
        message.unverifiedDevice = incoming.unverifiedDevice
        try store.insert(message, levels: incoming.levels)
        try noteSenderTranscript(incoming, of: id)
        try noteAnnouncedSize(incoming, of: id)
        try noteActivity(roomID: incoming.roomID, at: incoming.sentAt, sender: incoming.sender)
        return try store.message(id)
    }

    private func resolve(_ id: String, as incoming: IncomingAudio) throws(StoreError) -> Message {
        let suffix = incoming.fileExtension.isEmpty ? "audio" : incoming.fileExtension
        try store.inTransaction {
            try store.database.query("""
                UPDATE messages SET title = ?, created_at = ?, duration = ?, file_name = ?, codec = ?, media_url = ?,
                                    unread = ?, encrypted = ?, unverified_device = ?
                WHERE id = ?
                """, [.text(ReceivedText.cleaned(incoming.title)), .real(incoming.sentAt.timeIntervalSince1970),
                      .real(incoming.duration), .text("\(id).\(suffix)"), .text(suffix), .text(incoming.mediaURL),
                      .integer(incoming.unread ? 1 : 0), .integer(incoming.encrypted ? 1 : 0),
                      .integer(incoming.unverifiedDevice ? 1 : 0), .text(id)])
            try store.database.query("DELETE FROM undecrypted_events WHERE message_id = ?", [.text(id)])
            if let levels = incoming.levels { try store.storeLevels(id, levels) }
        }
        try noteSenderTranscript(incoming, of: id)
        try noteAnnouncedSize(incoming, of: id)
        try noteActivity(roomID: incoming.roomID, at: incoming.sentAt, sender: incoming.sender)
        return try store.message(id)
    }

    /// The sender's words are its transcript from the start: the queue passes over it.
    private func noteSenderTranscript(_ incoming: IncomingAudio, of id: String) throws(StoreError) {
        if let words = incoming.senderTranscript { try store.storeSenderTranscript(id, text: ReceivedText.cleaned(words, limit: ReceivedText.transcriptLength)) }
    }

    private func noteAnnouncedSize(_ incoming: IncomingAudio, of id: String) throws(StoreError) {
        if let size = incoming.announcedSize, size >= 0 {
            try store.run("INSERT INTO downloads (message_id, announced_size) VALUES (?, ?)", [.text(id), .integer(Int64(size))])
        }
    }

    /// Received messages whose audio is still to be downloaded, newest first:
    /// not those that failed for good, nor those waiting to be tried again after `now`.
    public func messagesAwaitingDownload(at now: Date = Date()) throws(StoreError) -> [Message] {
        try store.messages(where: """
            state = 'missing' AND media_url IS NOT NULL AND NOT EXISTS (SELECT 1 FROM downloads
                WHERE message_id = messages.id AND (permanent = 1 OR retry_at > ?))
            ORDER BY created_at DESC
            """, [.real(now.timeIntervalSince1970)])
    }

    /// Moves a downloaded file (`file`, analysed as `analysis`) into the
    /// store as the message's audio, under its real name (a rename: it was
    /// downloaded into the store's folder): Hark's own levels replace the
    /// event's. With transcription on, the message is queued for it, as a recording is.
    public func adoptDownload(_ id: String, from file: DownloadFile, analysis: Analysis) throws(StoreError) {
        try store.checkWritable()
        let message = try store.message(id)
        guard message.state == .missing else { return }
        var changes = store.ownChanges()
        defer { store.noteOwn(changes) }
        if !changes.make({ file.copy.move(to: store.audioPath(of: message)) }) {
            throw .file(path: store.audioPath(of: message), detail: tr("could not be moved into place"))
        }
        try store.inTransaction {
            try store.database.query("UPDATE messages SET state = 'ready', duration = ? WHERE id = ? AND state = 'missing'",
                               [.real(analysis.duration), .text(id)])
            try store.queueArrived(id)  // like a recording: yours from another device and others' alike
            try store.storeLevels(id, analysis.levels)
            try store.database.query("DELETE FROM downloads WHERE message_id = ?", [.text(id)])
        }
    }

    /// Someone removed an event for everyone: the message received as it
    /// leaves the history (deleted, as a Delete would); its id, if there was
    /// one. Hark's own recordings stay: a copy of the user's own words is
    /// theirs to delete.
    @discardableResult
    public func removeRedacted(eventID: String, at date: Date = Date()) throws(StoreError) -> String? {
        var id: String?
        try store.run("SELECT id FROM messages WHERE event_id = ? AND origin = 'received' AND state != 'deleted'",
                [.text(eventID)]) { id = $0.text(0) }
        guard let id else { return nil }
        try store.delete(id, at: date)
        return id
    }
}
