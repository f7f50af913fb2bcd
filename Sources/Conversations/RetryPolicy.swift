import Foundation
import Matrix

/// When a failed send is tried again, or given up: pure.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts after which a send that keeps failing is "Not sent" until the user retries.
    public var maximumAttempts = 6
    public var firstDelay: TimeInterval = 2
    public var longestDelay: TimeInterval = 60

    public init() {}

    public enum Decision: Sendable, Equatable {
        case retry(after: TimeInterval)
        case giveUp
        /// The account was signed out: nothing is sent until it signs in again; the send stays queued.
        case stop
    }

    /// What to do after attempt number `attempt` (1 for the first) failed with `error`.
    public func decision(after error: MatrixError, attempt: Int) -> Decision {
        switch error {
        case .signedOutByServer, .notSignedIn:
            return .stop
        case .rateLimited(let wait):
            // The server said how long: that is no failure of the send's own.
            return .retry(after: max(0.1, Double(wait ?? 5_000) / 1000))
        case .unreachable, .badResponse, .cancelled:
            return attempt >= maximumAttempts ? .giveUp : .retry(after: backoff(attempt))
        case .server(let status, _, _) where status >= 500:
            return attempt >= maximumAttempts ? .giveUp : .retry(after: backoff(attempt))
        default:
            // Refused for a reason retrying cannot mend (encrypted, forbidden, too large…).
            return .giveUp
        }
    }

    func backoff(_ attempt: Int) -> TimeInterval {
        min(longestDelay, firstDelay * pow(2, Double(max(0, attempt - 1))))
    }
}
