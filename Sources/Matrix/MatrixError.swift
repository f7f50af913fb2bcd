import Foundation
import Localization

/// The standard error body of the client-server API:
/// `{"errcode": "M_…", "error": "…", "retry_after_ms": …}`.
public struct ServerErrorBody: Decodable, Sendable, Equatable {
    public var errcode: String
    public var error: String?
    public var retryAfterMilliseconds: Int?
    public var softLogout: Bool?

    enum CodingKeys: String, CodingKey {
        case errcode, error
        case retryAfterMilliseconds = "retry_after_ms"
        case softLogout = "soft_logout"
    }
}

/// What went wrong talking to a homeserver, each with a sentence for the user.
public enum MatrixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The access token was revoked or expired (`M_UNKNOWN_TOKEN`).
    case signedOutByServer
    /// An authenticated call with no session to make it with.
    case notSignedIn
    /// `M_FORBIDDEN` answering a password login.
    case wrongPassword
    /// The server offers no `m.login.password` (only SSO or OAuth).
    case passwordLoginUnsupported(homeserver: String)
    /// `M_LIMIT_EXCEEDED` (HTTP 429): try again after this long (nil: the server did not say).
    case rateLimited(retryAfterMilliseconds: Int?)
    /// Any other error the server reported.
    case server(status: Int, code: String, message: String)
    /// The server could not be reached, or the connection broke.
    case unreachable(homeserver: String, reason: String)
    /// The server answered something that is not what the API promises.
    case badResponse(homeserver: String, detail: String)
    /// The answer was larger than the most Hark reads of it (bytes).
    case tooLarge(homeserver: String, limit: Int)
    /// `.well-known/matrix/client` named no usable homeserver.
    case discoveryFailed(serverName: String, detail: String)
    /// What the user typed is neither a Matrix ID, a server name nor a URL.
    case invalidHomeserver(String)
    /// The room is end-to-end encrypted, which Hark cannot speak yet: nothing was sent.
    case encryptedRoom
    /// The request was cancelled before it finished.
    case cancelled
    /// What arrived could not be written on this computer (a full disk…):
    /// no fault of the server's.
    case notSaved(path: String, reason: String)

    public var description: String {
        switch self {
        case .signedOutByServer:
            return tr("Signed out by the server. Sign in again to go on; nothing on this computer was lost.")
        case .notSignedIn:
            return tr("Not signed in to a Matrix account.")
        case .wrongPassword:
            return tr("The user name or password is wrong.")
        case .passwordLoginUnsupported(let homeserver):
            return tr("{server} signs in only through its own web page (single sign-on or OAuth), "
                      + "which Hark cannot do yet.", ["server": homeserver])
        case .rateLimited(let wait):
            if let wait {
                return trn("The server asks to wait {count} second before trying again.",
                           "The server asks to wait {count} seconds before trying again.", max(1, (wait + 999) / 1000))
            }
            return tr("The server asks to wait before trying again.")
        case .server(let status, let code, let message):
            guard Self.isMatrixCode(code) else { return Self.sentence(forStatus: status) }
            let reason = message.isEmpty ? code : String(message.prefix(Self.longestServerMessage))
            return tr("The server refused: {reason}", ["reason": reason])
        case .unreachable(let homeserver, let reason):
            return tr("Cannot reach {server}: {reason}.", ["server": homeserver, "reason": reason])
        case .badResponse(let homeserver, _):
            return tr("{server} gave an answer Hark does not understand.", ["server": homeserver])
        case .tooLarge(let homeserver, let limit):
            return tr("{server} sent more than {size}, the most Hark accepts for this: it was stopped there.",
                      ["server": homeserver, "size": HTTPFailure.megabytes(limit)])
        case .discoveryFailed(let serverName, let detail):
            return tr("Cannot find the Matrix server of {name}: {reason}.", ["name": serverName, "reason": detail])
        case .invalidHomeserver(let text):
            return tr("“{text}” is not a Matrix ID (@name:example.org), a server name or a server address.", ["text": text])
        case .encryptedRoom:
            return tr("This room is end-to-end encrypted and Hark’s encryption is not set up: Hark sent nothing into it.")
        case .cancelled:
            return tr("Cancelled.")
        case .notSaved(_, let reason):
            return tr("It could not be saved on this computer: {reason}.", ["reason": reason])
        }
    }

    /// What a person needs no more than the sentence for, but a report of the
    /// problem does: the server's own code and status, the start of an answer
    /// that was not the API's, what did not decode. Shown behind "Details".
    public var details: String? {
        switch self {
        case .server(let status, let code, let message):
            if Self.isMatrixCode(code) { return "\(code), HTTP \(status)" }
            let excerpt = message.trimmingCharacters(in: .whitespacesAndNewlines)
            return "HTTP \(status)" + (excerpt.isEmpty ? "" : ": " + String(excerpt.prefix(Self.longestServerMessage)))
        case .badResponse(_, let detail):
            return detail
        case .notSaved(let path, _):
            return path
        default:
            return nil
        }
    }

    /// The longest piece of a server's own words shown (a hostile server's
    /// "message" can be anything, of any length).
    static let longestServerMessage = 300

    /// `M_FORBIDDEN` and its kind: the server answered in the API's own terms.
    static func isMatrixCode(_ code: String) -> Bool { !code.hasPrefix("HTTP ") }

    /// A sentence for an HTTP status the server gave no Matrix error with
    /// (a proxy's or a broken server's page).
    static func sentence(forStatus status: Int) -> String {
        switch status {
        case 500...599:
            return tr("The server has a problem of its own (HTTP {status}): try again later.", ["status": String(status)])
        case 404:
            return tr("The server does not offer what Hark asked for (HTTP 404): it may not be a Matrix server.")
        case 401, 403:
            return tr("The server refused access (HTTP {status}).", ["status": String(status)])
        case 413:
            return tr("The server refused it as too large (HTTP 413).")
        default:
            return tr("The server refused the request (HTTP {status}).", ["status": String(status)])
        }
    }

    /// The error an HTTP answer stands for, or nil for a success (2xx).
    /// `retryAfterHeader` is the `Retry-After` header (seconds), used when the
    /// body gives no `retry_after_ms`.
    public static func from(status: Int, body: Data, retryAfterHeader: String? = nil) -> MatrixError? {
        guard !(200..<300).contains(status) else { return nil }
        let decoded = try? JSONDecoder().decode(ServerErrorBody.self, from: body)
        let code = decoded?.errcode ?? "HTTP \(status)"
        switch code {
        case "M_UNKNOWN_TOKEN", "M_MISSING_TOKEN":
            return .signedOutByServer
        case "M_LIMIT_EXCEEDED":
            let header = retryAfterHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { $0 * 1000 }
            return .rateLimited(retryAfterMilliseconds: decoded?.retryAfterMilliseconds ?? header)
        default:
            if status == 429 {
                let header = retryAfterHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { $0 * 1000 }
                return .rateLimited(retryAfterMilliseconds: decoded?.retryAfterMilliseconds ?? header)
            }
            let message = decoded?.error ?? String(decoding: body.prefix(200), as: UTF8.self)
            return .server(status: status, code: code, message: message)
        }
    }
}
