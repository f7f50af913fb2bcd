import Foundation
import Localization

public enum MessageState: String, Sendable, Equatable, CaseIterable {
    /// Being recorded, or left so by a crash until recovery sees to it.
    case recording
    case ready
    /// The row is there, its audio file is not.
    case missing
    /// Deleted, undoable until purged.
    case deleted
}

/// One voice message as the store keeps it. Levels are fetched separately.
public struct Message: Sendable, Equatable, Identifiable {
    public let id: String
    public var title: String
    public var createdAt: Date
    public var duration: Double
    /// The audio file's name inside the store's `messages/` folder.
    public var fileName: String
    /// "opus" for Hark's recordings; the file's extension for imports.
    public var codec: String
    public var state: MessageState
    public var deletedAt: Date?
    public var playPosition: Double
    /// For Hark's own recordings: whether the voice was cleaned up (noise
    /// reduced, gain evened) while recording. Nil for imports and for
    /// recordings made before Hark kept track.
    public var voiceProcessed: Bool? = nil
    public var origin: MessageOrigin = .recorded
    /// The Matrix room a message was received in or recorded into.
    public var roomID: String? = nil
    /// Who sent a received message (a Matrix user id).
    public var sender: String? = nil
    /// The event that carried it (received), or that Hark sent it as into its room.
    public var eventID: String? = nil
    /// The `mxc://` address of its audio, from which a received message's
    /// file is downloaded (again, when it goes missing).
    public var mediaURL: String? = nil
    /// A received message not yet played or seen.
    public var unread: Bool = false
    /// The title was given (typed by the user, or a received message's own):
    /// a transcript's first words never replace it. False for the defaults
    /// ("Voice message", an imported file's name).
    public var titleTyped: Bool = false
    /// The machine transcript (done: the words; empty: ""), see `transcriptState`.
    public var transcript: String? = nil
    public var transcriptState: TranscriptState = .none
    /// Whose words the transcript is (nil when there is none).
    public var transcriptSource: TranscriptSource? = nil
    /// Why a received message's audio cannot be downloaded (too large, not
    /// audio, refused by the server): it is not tried again. Nil while it may come.
    public var downloadFailure: String? = nil
    /// It came or went end-to-end encrypted.
    public var encrypted: Bool = false
    /// It came from a device its owner has not cross-signed: never shown as trusted.
    public var unverifiedDevice: Bool = false
    /// It came encrypted and cannot be read (yet): the row stands for it (see `Undecrypted`).
    public var undecrypted: Undecrypted? = nil

    /// A received message whose audio has not been downloaded yet, and may be.
    public var isAwaitingDownload: Bool { state == .missing && mediaURL != nil && downloadFailure == nil }
    /// A received message whose audio could not be downloaded for good (see `downloadFailure`).
    public var downloadFailed: Bool { state == .missing && mediaURL != nil && downloadFailure != nil }
}

/// Which messages a history shows.
public enum HistoryScope: Sendable, Equatable, Hashable {
    /// Every message.
    case all
    /// The user's own: recorded and imported (also those sent into rooms).
    case recordings
    /// A Matrix room's: received there, recorded into it, or sent to it.
    case room(String)
}

/// Where a message's transcript is.
public enum TranscriptState: String, Sendable, Equatable, CaseIterable {
    /// Never asked for (or transcription was off).
    case none
    /// Waiting in the queue (kept in the store: it survives a restart).
    case queued
    case done
    /// The helper failed on it (an error, a crash, a hang past the deadline).
    case failed
    /// Transcribed, and nothing was said (silence, noise).
    case empty
}

/// Whose words a transcript is.
public enum TranscriptSource: String, Sendable, Equatable, CaseIterable {
    /// Made on this computer by the transcription engine.
    case local
    /// Sent by the message's sender inside its event (the voice message's caption).
    case sender
}

/// Where a message came from.
public enum MessageOrigin: String, Sendable, Equatable, CaseIterable {
    case recorded, imported, received
}

public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchMessage(String)
    case database(SQLiteError)
    case file(path: String, detail: String)
    case exists(path: String)
    case notAudio(path: String, detail: String)
    /// A change asked of a store that can only be read: its folder is
    /// read-only (a backup mounted so), or its disk is full.
    case readOnly(folder: String)
    case diskFull(folder: String)

    public var description: String {
        switch self {
        case .noSuchMessage(let id): return tr("No message with id {id}.", ["id": id])
        case .database(let error) where error.isBusy:
            return tr("The message store is busy: another Hark is writing to it. Try again in a moment.")
        case .database(let error) where error.isDiskFull:
            return tr("The message database failed: the disk is full ({reason}).", ["reason": error.message])
        case .database(let error): return tr("The message database failed: {reason}.", ["reason": error.message])
        case .file(let path, let detail):
            // TRANSLATORS: {detail} is what happened to the file, "cannot be read (Permission denied)".
            return tr("{path}: {detail}.", ["path": path, "detail": detail])
        case .exists(let path): return tr("{path} already exists (use --force to replace it).", ["path": path])
        case .notAudio(let path, let detail): return tr("{path} cannot be imported: {reason}.", ["path": path, "reason": detail])
        case .readOnly(let folder): return tr("Nothing was changed in the message store {folder}: it is read-only.", ["folder": folder])
        case .diskFull(let folder): return tr("Nothing was changed in the message store {folder}: the disk is full.", ["folder": folder])
        }
    }
}
