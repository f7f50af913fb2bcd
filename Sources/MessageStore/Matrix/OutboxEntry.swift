import Foundation

/// One send of a message into a room, as the outbox keeps it. The row is
/// written, with its transaction id, before the first request; every retry
/// reuses that id, so the server answers with the same event.
public struct OutboxEntry: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        /// Waiting to be sent (again, after a failure, at `nextAttemptAt`).
        case queued
        case sent
        /// Gave up after repeated failures, or a failure retrying cannot mend: the user may retry.
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
}

/// How a message's sends stand, for its row and `hark list`.
public enum SendState: String, Sendable, Equatable {
    case sending, sent, failed
}
