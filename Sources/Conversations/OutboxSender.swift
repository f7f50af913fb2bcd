import Foundation
import Levels
import Localization
import Matrix
import MessageStore

/// Sends what the outbox holds, one entry at a time, oldest first: the
/// audio is uploaded once (its address kept in the row), then the event is
/// sent under the row's transaction id, as often as it takes.
@MainActor
final class OutboxSender {
    private let store: MessageStore
    private let client: MatrixClient
    private let policy: RetryPolicy
    /// Told after each attempt (the row's state changed).
    var onChange: (String) -> Void = { _ in }

    init(store: MessageStore, client: MatrixClient, policy: RetryPolicy) {
        self.store = store
        self.client = client
        self.policy = policy
    }

    enum Pass: Equatable {
        /// Nothing is due; the next queued entry is due at this time (nil: none queued).
        case idle(nextDue: Date?)
        /// The account was signed out by the server: stop.
        case signedOut
    }

    /// Sends every entry that is due now; returns when none is. `once`:
    /// each entry is attempted at most once in this pass.
    func sendDue(now: () -> Date = Date.init, once: Bool = false) async -> Pass {
        var attempted: Set<String> = []
        while true {
            guard let queued = try? store.queuedSends() else { return .idle(nextDue: nil) }
            guard let entry = queued.first(where: { $0.nextAttemptAt <= now() && !attempted.contains($0.transactionID) })
            else {
                return .idle(nextDue: queued.map(\.nextAttemptAt).min())
            }
            if Task.isCancelled { return .idle(nextDue: Date()) }
            if once { attempted.insert(entry.transactionID) }
            if case .signedOut = await attempt(entry) { return .signedOut }
        }
    }

    private enum Attempt { case done, signedOut }

    private func attempt(_ entry: OutboxEntry) async -> Attempt {
        do throws(SendFailure) {
            let eventID = try await send(entry)
            try? store.markSent(entry.transactionID, eventID: eventID)
        } catch {
            guard case .matrix(let error) = error else {
                if case .local(let reason) = error {
                    try? store.markAttemptFailed(entry.transactionID, error: reason, retryAt: nil)
                }
                onChange(entry.messageID)
                return .done
            }
            switch policy.decision(after: error, attempt: entry.attempts + 1) {
            case .retry(let delay):
                try? store.markAttemptFailed(entry.transactionID, error: error.description,
                                             retryAt: Date().addingTimeInterval(delay))
            case .giveUp:
                try? store.markAttemptFailed(entry.transactionID, error: error.description, retryAt: nil)
            case .stop:
                try? store.setSignedOutByServer(true)
                onChange(entry.messageID)
                return .signedOut
            }
        }
        onChange(entry.messageID)
        return .done
    }

    private enum SendFailure: Error {
        case matrix(MatrixError)
        /// Something on this computer: the file is gone, the room is encrypted…
        case local(String)
    }

    private func send(_ entry: OutboxEntry) async throws(SendFailure) -> String {
        guard let message = try? store.message(entry.messageID) else { throw .local(tr("The message is no longer here.")) }
        if let room = try? store.room(entry.roomID), room.isEncrypted {
            throw .local(MatrixError.encryptedRoom.description)
        }
        let path = store.audioPath(of: message)
        let contentURI: String
        if let uploaded = entry.contentURI {
            contentURI = uploaded
        } else {
            // Not even the file goes to the server for a room that turned encrypted.
            let encrypted: Bool
            do { encrypted = try await client.isEncrypted(roomID: entry.roomID) } catch { throw .matrix(error) }
            if encrypted {
                try? store.updateRoom(RoomUpdate(id: entry.roomID, membership: .join, isEncrypted: true))
                throw .local(MatrixError.encryptedRoom.description)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .local(tr("The message's audio file is missing."))
            }
            do {
                contentURI = try await client.upload(data, contentType: Self.mimeType(message), fileName: Self.fileName(message))
            } catch {
                throw .matrix(error)
            }
            try? store.setUploaded(entry.transactionID, contentURI: contentURI)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let outgoing = OutgoingVoiceMessage(title: message.title, fileName: Self.fileName(message),
                                            mimeType: Self.mimeType(message), size: size,
                                            durationMilliseconds: Int((message.duration * 1000).rounded()),
                                            levels: (try? store.levels(of: message.id)) ?? LevelTrack())
        do {
            return try await client.sendVoiceMessage(roomID: entry.roomID, transactionID: entry.transactionID,
                                                     message: outgoing, contentURI: contentURI)
        } catch .encryptedRoom {
            try? store.updateRoom(RoomUpdate(id: entry.roomID, membership: .join, isEncrypted: true))
            throw .local(MatrixError.encryptedRoom.description)
        } catch {
            throw .matrix(error)
        }
    }

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
    static func fileName(_ message: Message) -> String {
        let suffix = (message.fileName as NSString).pathExtension
        return ExportName.forTitle(message.title, fileExtension: suffix.isEmpty ? "ogg" : suffix)
    }
}
