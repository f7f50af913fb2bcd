import Foundation
import Levels
import Localization
import Matrix
import MessageStore

/// Sends what the outbox holds, one entry at a time, oldest first: the
/// audio is uploaded once as Ogg Opus (its address kept in the row), then
/// the event is sent under the row's transaction id, as often as it takes.
@MainActor
final class OutboxSender {
    private let store: MessageStore
    private let client: MatrixClient
    private let policy: RetryPolicy
    private let clock: () -> Date
    /// Told after each attempt (the row's state changed).
    var onChange: (String) -> Void = { _ in }
    /// Told when the server answered a send (accepting it or not): it can be reached.
    var onAnswer: () -> Void = {}
    /// Encrypts sends into encrypted rooms; without it nothing goes there.
    var encryption: RoomEncryption?

    init(store: MessageStore, client: MatrixClient, policy: RetryPolicy, clock: @escaping () -> Date) {
        self.store = store
        self.client = client
        self.policy = policy
        self.clock = clock
    }

    enum Pass: Equatable {
        /// Nothing is due; the next queued entry is due at this time (nil: none queued).
        case idle(nextDue: Date?)
        /// The account was signed out by the server: stop.
        case signedOut
    }

    /// Sends every entry due by `dueBy` (nil: now); returns when none is.
    /// `once`: each entry is attempted at most once in this pass.
    func sendDue(by dueBy: Date? = nil, once: Bool = false) async -> Pass {
        var attempted: Set<String> = []
        while true {
            // A new device's sends already uploaded wait for its first sync (see `isDeviceUnsynced`).
            let unsynced = store.matrix.isDeviceUnsynced
            guard let queued = try? store.matrix.queuedSends().filter({ $0.contentURI == nil || !unsynced }) else {
                return .idle(nextDue: nil)
            }
            let due = dueBy ?? clock()
            guard let entry = queued.first(where: { $0.nextAttemptAt <= due && !attempted.contains($0.transactionID) })
            else {
                return .idle(nextDue: queued.map(\.nextAttemptAt).min())
            }
            if Task.isCancelled { return .idle(nextDue: clock()) }
            if once { attempted.insert(entry.transactionID) }
            if case .signedOut = await attempt(entry) { return .signedOut }
        }
    }

    /// The sync a new device's uploaded sends wait for failed: that counts as
    /// their try (due by `dueBy`, nil: now), so they too are "Not sent" after
    /// waiting too long rather than "Sending…" for ever.
    func heldBackSyncFailed(_ error: MatrixError, dueBy: Date? = nil) -> Pass {
        guard store.matrix.isDeviceUnsynced, let held = try? store.matrix.queuedSends().filter({ $0.contentURI != nil }) else {
            return .idle(nextDue: nil)
        }
        for entry in held where entry.nextAttemptAt <= dueBy ?? clock() {
            if case .stop = failed(entry, error) { return .signedOut }
            onChange(entry.messageID)
        }
        return .idle(nextDue: nil)
    }

    private enum Attempt { case done, signedOut }

    private func attempt(_ entry: OutboxEntry) async -> Attempt {
        do throws(SendFailure) {
            let eventID = try await send(entry)
            try? store.matrix.markSent(entry.transactionID, eventID: eventID)
            onAnswer()
        } catch {
            switch error {
            case .cancelled:
                return .done
            case .matrix(.cancelled) where Task.isCancelled:
                return .done  // the session stopped: not a failure of the send
            case .local(let reason):
                try? store.matrix.markAttemptFailed(entry.transactionID, error: reason, retryAt: nil)
            case .matrix(let error):
                if case .stop = failed(entry, error) { return .signedOut }
            }
        }
        onChange(entry.messageID)
        return .done
    }

    /// Records a failure the server's side gave: tried again later, or given up.
    private func failed(_ entry: OutboxEntry, _ error: MatrixError) -> RetryPolicy.Decision {
        switch error {
        case .server, .rateLimited: onAnswer()
        default: break
        }
        let now = clock()
        let decision = policy.decision(after: error, attempt: entry.attempts + 1,
                                       waited: now.timeIntervalSince(entry.waitingSince))
        switch decision {
        case .retry(let delay):
            // A rate limit says the wait Hark keeps, not the months a server may have asked.
            let reason = if case .rateLimited = error {
                MatrixError.rateLimited(retryAfterMilliseconds: Int(delay * 1000)).description
            } else {
                error.description
            }
            try? store.matrix.markAttemptFailed(entry.transactionID, error: reason, retryAt: now.addingTimeInterval(delay))
        case .giveUp:
            try? store.matrix.markAttemptFailed(entry.transactionID, error: error.description, retryAt: nil)
        case .expired:
            try? store.matrix.markAttemptFailed(entry.transactionID, error: error.description, retryAt: nil, expired: true)
        case .stop:
            try? store.matrix.setSignedOutByServer(true)
            onChange(entry.messageID)
        }
        return decision
    }

    private enum SendFailure: Error {
        case matrix(MatrixError)
        /// Something on this computer: the file is gone, the room is encrypted…
        case local(String)
        case cancelled
    }

    private func send(_ entry: OutboxEntry) async throws(SendFailure) -> String {
        guard let message = try? store.message(entry.messageID) else { throw .local(tr("The message is no longer here.")) }
        if let room = try? store.matrix.room(entry.roomID), room.isEncrypted {
            guard let encryption else { throw .local(MatrixError.encryptedRoom.description) }
            return try await sendEncrypted(entry, message, encryption)
        }
        let path = store.audioPath(of: message)
        // Uploaded before Hark converted what it sends: the file as it is.
        let uploadedUnchanged = entry.contentURI != nil && entry.uploadedSize == nil
        let mimeType = uploadedUnchanged ? Self.mimeType(message) : OutgoingAudio.mimeType
        let fileName = uploadedUnchanged ? Self.fileName(message) : Self.fileName(message, extension: OutgoingAudio.fileExtension)
        let contentURI: String
        let size: Int
        if let uploaded = entry.contentURI {
            contentURI = uploaded
            size = entry.uploadedSize ?? (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        } else {
            // Not even the file goes to the server for a room that turned encrypted.
            let encrypted: Bool
            do { encrypted = try await client.isEncrypted(roomID: entry.roomID) } catch { throw .matrix(error) }
            if encrypted {
                try? store.matrix.updateRoom(RoomUpdate(id: entry.roomID, membership: .join, isEncrypted: true))
                throw .local(MatrixError.encryptedRoom.description)
            }
            let data: Data
            do throws(OutgoingAudio.Failure) {
                data = try await OutgoingAudio.data(of: path)
            } catch {
                switch error {
                case .cancelled: throw .cancelled
                case .unusable(let reason): throw .local(reason)
                }
            }
            do {
                contentURI = try await client.upload(data, contentType: mimeType, fileName: fileName)
            } catch {
                throw .matrix(error)
            }
            size = data.count
            try? store.matrix.setUploaded(entry.transactionID, contentURI: contentURI, size: size)
        }
        let outgoing = OutgoingVoiceMessage(title: message.title, fileName: fileName, mimeType: mimeType, size: size,
                                            durationMilliseconds: Int((message.duration * 1000).rounded()),
                                            levels: (try? store.levels(of: message.id)) ?? LevelTrack(),
                                            caption: entry.caption)
        do {
            return try await client.sendVoiceMessage(roomID: entry.roomID, transactionID: entry.transactionID,
                                                     message: outgoing, contentURI: contentURI)
        } catch .encryptedRoom {
            try? store.matrix.updateRoom(RoomUpdate(id: entry.roomID, membership: .join, isEncrypted: true))
            throw .local(MatrixError.encryptedRoom.description)
        } catch {
            throw .matrix(error)
        }
    }

    private func sendEncrypted(_ entry: OutboxEntry, _ message: Message, _ encryption: RoomEncryption)
        async throws(SendFailure) -> String {
        let data: Data
        do throws(OutgoingAudio.Failure) {
            data = try await OutgoingAudio.data(of: store.audioPath(of: message))
        } catch {
            switch error {
            case .cancelled: throw .cancelled
            case .unusable(let reason): throw .local(reason)
            }
        }
        let fileName = Self.fileName(message, extension: OutgoingAudio.fileExtension)
        let voice = OutgoingVoiceMessage(title: message.title, fileName: fileName, mimeType: OutgoingAudio.mimeType,
                                         size: data.count, durationMilliseconds: Int((message.duration * 1000).rounded()),
                                         levels: (try? store.levels(of: message.id)) ?? LevelTrack(),
                                         caption: entry.caption)
        do throws(EncryptedSend.Failure) {
            return try await EncryptedSend(store: store, client: client, encryption: encryption)
                .send(entry, message: message, audio: data, voice: voice)
        } catch {
            switch error {
            case .matrix(let error): throw .matrix(error)
            case .local(let reason): throw .local(reason)
            }
        }
    }

    /// The type of the message's own file (what Hark uploaded before it converted).
    static func mimeType(_ message: Message) -> String {
        switch message.codec.lowercased() {
        case "opus", "ogg", "oga": return "audio/ogg"
        case "mp3": return "audio/mpeg"
        case "wav": return "audio/wav"
        case "flac": return "audio/flac"
        case "m4a", "mp4": return "audio/mp4"
        default: return "audio/ogg"
        }
    }

    /// The file's name as the other person sees it: the title, and the audio's extension.
    static func fileName(_ message: Message, extension fileExtension: String? = nil) -> String {
        let suffix = fileExtension ?? (message.fileName as NSString).pathExtension
        return ExportName.forTitle(message.title, fileExtension: suffix.isEmpty ? "ogg" : suffix)
    }
}
