import Foundation
import MatrixCrypto

/// A 401 of user-interactive auth (spec "User-interactive authentication
/// API"): the ways the server accepts, the session to answer in, and the
/// error of an answer it refused.
struct AuthChallenge: Decodable {
    struct Flow: Decodable {
        var stages: [String]
    }

    var flows: [Flow]
    var session: String?
    var errcode: String?

    /// Whether the password alone completes a flow.
    var acceptsPassword: Bool { flows.contains { $0.stages == [AuthChallenge.password] } }

    static let password = "m.login.password"
}

extension MatrixClient {
    /// Sends `request(nil)`; when the server asks for user-interactive auth
    /// and takes the password alone, sends `request(auth)` again with
    /// `password` for the signed-in user under the session the server gave.
    /// Without a password (or a way to use one) the server's refusal is
    /// thrown; a password it refuses, `.wrongPassword`.
    func sendWithPassword(_ password: String?, _ request: (JSONValue?) -> APIRequest) async throws(MatrixError) {
        let first = try await answer(request(nil))
        guard first.status == 401, let password, let userID = session?.userID,
              let challenge = try? JSONDecoder().decode(AuthChallenge.self, from: first.body), challenge.acceptsPassword
        else {
            if let error = MatrixError.from(status: first.status, body: first.body, retryAfterHeader: first.retryAfter) { throw error }
            return
        }
        var auth: [String: JSONValue] = [
            "type": .string(AuthChallenge.password),
            "identifier": .object(["type": "m.id.user", "user": .string(userID)]),
            "password": .string(password),
        ]
        if let session = challenge.session { auth["session"] = .string(session) }
        let second = try await answer(request(.object(auth)))
        if second.status == 401, (try? JSONDecoder().decode(AuthChallenge.self, from: second.body))?.errcode == "M_FORBIDDEN" {
            throw .wrongPassword
        }
        if let error = MatrixError.from(status: second.status, body: second.body, retryAfterHeader: second.retryAfter) { throw error }
    }
}
