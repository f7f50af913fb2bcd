import Foundation
import Matrix

/// When a failed send is tried again, or given up: pure. A send the server
/// could not be reached for (or that failed on the server's side) is tried
/// again, sooner when the connection comes back, until it has waited
/// `unsentLimit`; one the server refused is given up at once.
public struct RetryPolicy: Sendable, Equatable {
    /// How long a send may wait unsent before it is "Not sent" until the user retries.
    public var unsentLimit: TimeInterval = RetryPolicy.defaultUnsentLimit
    public var firstDelay: TimeInterval = 2
    public var longestDelay: TimeInterval = 60
    /// The longest a send waits because the server asked it to (`retry_after_ms`).
    public var longestRateLimitWait: TimeInterval = 5 * 60
    /// While the server cannot be reached, the longest the sync waits before
    /// asking again: how long "Offline" may outlast the server's return.
    public var longestReconnectDelay: TimeInterval = 5

    public static let defaultUnsentLimit: TimeInterval = 24 * 3600

    public init() {}

    public enum Decision: Sendable, Equatable {
        case retry(after: TimeInterval)
        /// The server refused it, for a reason retrying cannot mend.
        case giveUp
        /// It waited unsent for `unsentLimit`: "Not sent" until retried.
        case expired
        /// The account was signed out: nothing is sent until it signs in again; the send stays queued.
        case stop
    }

    /// What to do after attempt number `attempt` (1 for the first since
    /// queued or retried) failed with `error`, the send having waited `waited`.
    public func decision(after error: MatrixError, attempt: Int, waited: TimeInterval) -> Decision {
        switch error {
        case .signedOutByServer, .notSignedIn:
            return .stop
        case .rateLimited(let wait):
            // The server's wait, but never less than the backoff (a wait of 0
            // would send again at once, for ever) nor more than a few minutes
            // (a huge one parked the send "Sending…" for months); and it
            // counts toward giving up, as any failure does.
            guard waited < unsentLimit else { return .expired }
            let asked = Double(max(0, wait ?? 0)) / 1000
            return .retry(after: min(longestRateLimitWait, max(asked, backoff(attempt))))
        case .unreachable, .badResponse, .cancelled:
            return waited >= unsentLimit ? .expired : .retry(after: backoff(attempt))
        case .server(let status, _, _) where status >= 500 || status == 408:
            // The server (or a proxy before it) failing, not refusing: it may well work in a moment.
            return waited >= unsentLimit ? .expired : .retry(after: backoff(attempt))
        default:
            // Refused for a reason retrying cannot mend (encrypted, forbidden, too large…).
            return .giveUp
        }
    }

    func backoff(_ attempt: Int) -> TimeInterval {
        min(longestDelay, firstDelay * pow(2, Double(max(0, attempt - 1))))
    }

    /// How long the sync waits after its `failures`th failure in a row before asking again.
    public func reconnectDelay(afterFailures failures: Int) -> TimeInterval {
        min(longestReconnectDelay, pow(2, Double(max(0, min(failures, 10) - 1))))
    }
}
