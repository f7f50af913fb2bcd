import Foundation

/// One send of a message into a room, as the outbox keeps it. The row is
/// written, with its transaction id, before the first request; every retry
/// reuses that id, so the server answers with the same event.
public struct OutboxEntry: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        /// Waiting to be sent (again, after a failure, at `nextAttemptAt`).
        case queued
        case sent
        /// The server refused it, something here cannot be mended (the file
        /// is gone, the room turned encrypted), or it waited unsent too long
        /// (`expired`): the user may retry.
        case failed
    }

    public var transactionID: String
    public var messageID: String
    public var roomID: String
    public var state: State
    /// The uploaded audio's `mxc://` address, once uploaded (a retry does not upload again).
    public var contentURI: String?
    public var eventID: String?
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var queuedAt: Date
    /// Since when it waits unsent: queued, or retried by the user.
    public var waitingSince: Date
    /// Given up for having waited unsent too long, not refused.
    public var expired: Bool
    /// How many bytes were uploaded to `contentURI` (nil: the message's file, unchanged).
    public var uploadedSize: Int?
    /// The words it is sent with (the message's transcript, as the event's caption), nil: none.
    public var caption: String? = nil
}

/// How a message's sends stand, for its row and `hark list`.
public enum SendState: String, Sendable, Equatable {
    case sending, sent, failed
}
