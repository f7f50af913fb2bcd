import Foundation
import GLibSupport
import Localization

/// A client of one homeserver, on GLib's main loop: each call is one or two
/// asynchronous requests through `HTTPSession`, never blocking the main
/// thread; cancelling the calling task cancels the request. Failures are
/// `MatrixError`s, each a sentence for the user.
@MainActor
public final class MatrixClient {
    /// The homeserver's base URL (`https://matrix.example.org`).
    public let homeserver: String
    /// The signed-in session whose token authenticated calls carry.
    public var session: Session?
    private let http: HTTPSession

    public init(homeserver: String, session: Session? = nil, http: HTTPSession = HTTPSession()) {
        self.homeserver = normalizedBaseURL(homeserver)
        self.session = session
        self.http = http
    }

    /// A transaction id for a new send; keep it with the message until the
    /// send is confirmed, and resend with the same one.
    public static func newTransactionID() -> String {
        "hark-" + UUID().uuidString.lowercased()
    }

    // MARK: Finding the server, signing in and out

    /// The homeserver's base URL for what the user typed: a URL as it is, a
    /// Matrix ID's or a server name's through `.well-known/matrix/client`
    /// (no document there: the server name itself, over https).
    /// `wellKnownURL` says where the document is asked for.
    public static func discover(_ text: String, http: HTTPSession = HTTPSession(),
                                wellKnownURL: (String) -> String = HomeserverInput.wellKnownURL)
        async throws(MatrixError) -> String {
        guard let input = HomeserverInput.parse(text) else { throw .invalidHomeserver(text) }
        switch input {
        case .url(let url):
            return url
        case .serverName(let name):
            let response: HTTPResponse
            do {
                response = try await http.send(method: "GET", url: wellKnownURL(name))
            } catch .cancelled {
                throw .cancelled
            } catch {
                throw .unreachable(homeserver: name, reason: error.description)
            }
            if response.status == 404 { return "https://\(name)" }
            guard (200..<300).contains(response.status) else {
                throw .discoveryFailed(serverName: name, detail: tr("its .well-known/matrix/client answered HTTP {status}",
                                                                               ["status": String(response.status)]))
            }
            return try WellKnownClient.baseURL(from: response.body, serverName: name)
        }
    }

    /// `GET /login`: how the server lets clients sign in.
    public func loginFlows() async throws(MatrixError) -> LoginFlows {
        try await call(Endpoints.loginFlows())
    }

    /// Signs in with a password (after checking the server offers it) and
    /// keeps the session. `user` is a local part or a whole Matrix ID.
    @discardableResult
    public func login(user: String, password: String, deviceName: String = "Hark") async throws(MatrixError) -> Session {
        try await loginFlows().requirePassword(homeserver: displayName)
        let response: LoginResponse
        do {
            response = try await call(Endpoints.login(PasswordLoginRequest(user: user, password: password,
                                                                           deviceName: deviceName)))
        } catch .server(_, "M_FORBIDDEN", _) {
            throw .wrongPassword
        }
        let session = Session(homeserver: homeserver, userID: response.userID, deviceID: response.deviceID,
                              accessToken: response.accessToken)
        self.session = session
        return session
    }

    public func whoAmI() async throws(MatrixError) -> WhoAmI {
        try await call(Endpoints.whoAmI())
    }

    /// Ends the session on the server (its token stops working) and forgets it here.
    public func logout() async throws(MatrixError) {
        let _: Empty = try await call(Endpoints.logout())
        session = nil
    }

    // MARK: Rooms

    public func joinedRooms() async throws(MatrixError) -> [String] {
        let rooms: JoinedRooms = try await call(Endpoints.joinedRooms())
        return rooms.rooms
    }

    /// A new private room with `invite` invited; its id.
    public func createRoom(name: String? = nil, invite: [String] = [], encrypted: Bool = false)
        async throws(MatrixError) -> String {
        let room: RoomIDResponse = try await call(Endpoints.createRoom(name: name, invite: invite, encrypted: encrypted))
        return room.roomID
    }

    public func invite(roomID: String, userID: String) async throws(MatrixError) {
        let _: Empty = try await call(Endpoints.invite(roomID: roomID, userID: userID))
    }

    /// Joins (or accepts the invitation to) a room; its id.
    @discardableResult
    public func join(roomID: String) async throws(MatrixError) -> String {
        let room: RoomIDResponse = try await call(Endpoints.join(roomID: roomID))
        return room.roomID
    }

    /// Leaves a room, or declines its invitation.
    public func leave(roomID: String) async throws(MatrixError) {
        let _: Empty = try await call(Endpoints.leave(roomID: roomID))
    }

    /// Whether the room's state has `m.room.encryption` (Hark never sends plaintext there).
    public func isEncrypted(roomID: String) async throws(MatrixError) -> Bool {
        do {
            let _: Empty = try await call(Endpoints.roomState(roomID: roomID, type: "m.room.encryption"))
            return true
        } catch .server(404, "M_NOT_FOUND", _) {
            return false
        }
    }

    // MARK: Media and messages

    /// Uploads a file unchanged; its `mxc://` URI.
    public func upload(_ data: Data, contentType: String, fileName: String) async throws(MatrixError) -> String {
        let answer: UploadResponse = try await call(Endpoints.upload(data, contentType: contentType, fileName: fileName))
        return answer.contentURI
    }

    /// Sends `message` (its audio already uploaded to `contentURI`) as a voice
    /// message; the event id. The same `transactionID` gives the same event,
    /// so a send that may or may not have reached the server is repeated with
    /// it. Refuses an encrypted room before sending anything.
    public func sendVoiceMessage(roomID: String, transactionID: String, message: OutgoingVoiceMessage,
                                 contentURI: String) async throws(MatrixError) -> String {
        guard try await !isEncrypted(roomID: roomID) else { throw .encryptedRoom }
        let content = VoiceMessageContent(message, contentURI: contentURI)
        let answer: EventIDResponse = try await call(Endpoints.sendMessage(roomID: roomID, transactionID: transactionID,
                                                                           content: content))
        return answer.eventID
    }

    /// Sends any `m.room.message` content (a JSON object); the event id.
    public func sendMessage(roomID: String, transactionID: String, json content: [String: any Sendable])
        async throws(MatrixError) -> String {
        guard try await !isEncrypted(roomID: roomID) else { throw .encryptedRoom }
        let answer: EventIDResponse = try await call(Endpoints.sendMessage(roomID: roomID, transactionID: transactionID,
                                                                           json: content))
        return answer.eventID
    }

    /// Removes an event for everyone (a redaction); the redaction's event id.
    @discardableResult
    public func redact(roomID: String, eventID: String, transactionID: String = MatrixClient.newTransactionID(),
                       reason: String? = nil) async throws(MatrixError) -> String {
        let answer: EventIDResponse = try await call(Endpoints.redact(roomID: roomID, eventID: eventID,
                                                                      transactionID: transactionID, reason: reason))
        return answer.eventID
    }

    /// One `/sync` from `since` (nil: the first), which the server may hold
    /// for up to `timeoutMilliseconds` waiting for something new. An answer
    /// past `HTTPSession.answerLimit` is refused; it is decoded off the main
    /// thread (a large one takes seconds).
    public func sync(since: String?, filter: String = SyncFilter.json(), timeoutMilliseconds: Int = 0)
        async throws(MatrixError) -> SyncResponse {
        let request = Endpoints.sync(since: since, filter: filter, timeoutMilliseconds: timeoutMilliseconds)
        let response = try await send(request)
        let body = response.body
        let decoded = await Task.detached { () -> Result<SyncResponse, DecodingFailure> in
            do { return .success(try JSONDecoder().decode(SyncResponse.self, from: body)) } catch {
                return .failure(DecodingFailure(detail: "\(error)"))
            }
        }.value
        switch decoded {
        case .success(let answer): return answer
        case .failure(let failure):
            throw .badResponse(homeserver: displayName, detail: "\(request.method.rawValue) \(request.path): \(failure.detail)")
        }
    }

    /// Older events of a room, going back from `from` (no further than `to`, when given).
    public func messages(roomID: String, from: String, to: String? = nil, limit: Int = 30)
        async throws(MatrixError) -> MessagesPage {
        try await call(Endpoints.messages(roomID: roomID, from: from, to: to, limit: limit))
    }

    /// Tells the server (and so the sender) the user has heard up to `eventID`.
    public func sendReadReceipt(roomID: String, eventID: String) async throws(MatrixError) {
        let _: Empty = try await call(Endpoints.readReceipt(roomID: roomID, eventID: eventID))
    }

    /// Downloads a file (authenticated media) into `path`, written as it
    /// arrives; more than `limit` bytes stop it (`HTTPFailure.tooLarge`
    /// inside `.unreachable`, see `DownloadFailure`).
    public func download(contentURI: String, to path: String, limit: Int) async throws(MatrixError) {
        guard let request = Endpoints.download(contentURI: contentURI) else {
            throw .badResponse(homeserver: displayName, detail: tr("“{address}” is not an mxc:// address", ["address": contentURI]))
        }
        _ = try await send(request, limit: limit, file: path)
    }

    // MARK: Sending

    /// The server as the user knows it: its host (and port).
    public var displayName: String {
        URLComponents(string: homeserver).flatMap { components in
            components.host.map { host in components.port.map { "\(host):\($0)" } ?? host }
        } ?? homeserver
    }

    func call<Answer: Decodable>(_ request: APIRequest) async throws(MatrixError) -> Answer {
        let response = try await send(request)
        do {
            return try JSONDecoder().decode(Answer.self, from: response.body)
        } catch {
            throw .badResponse(homeserver: displayName, detail: "\(request.method.rawValue) \(request.path): \(error)")
        }
    }

    /// The answer to `request`, or the error it stands for.
    func send(_ request: APIRequest, limit: Int = HTTPSession.answerLimit, file: String? = nil)
        async throws(MatrixError) -> HTTPResponse {
        let response = try await answer(request, limit: limit, file: file)
        if let error = MatrixError.from(status: response.status, body: response.body,
                                        retryAfterHeader: response.retryAfter) {
            throw error
        }
        return response
    }

    /// The server's answer to `request`, whatever its status (a refusal
    /// that carries more than its error: user-interactive auth's flows).
    func answer(_ request: APIRequest, limit: Int = HTTPSession.answerLimit, file: String? = nil)
        async throws(MatrixError) -> HTTPResponse {
        var headers: [(String, String)] = []
        if request.authenticated {
            guard let session else { throw .notSignedIn }
            headers.append(("Authorization", "Bearer \(session.accessToken)"))
        }
        let response: HTTPResponse
        do {
            response = try await http.send(method: request.method.rawValue, url: request.url(baseURL: homeserver),
                                           headers: headers, body: request.body, contentType: request.contentType,
                                           holdMilliseconds: request.serverHoldMilliseconds, limit: limit, file: file)
        } catch .cancelled {
            throw .cancelled
        } catch .tooLarge(let limit) {
            throw .tooLarge(homeserver: displayName, limit: limit)
        } catch .unwritable(let path, let reason) {
            throw .notSaved(path: path, reason: reason)
        } catch {
            throw .unreachable(homeserver: displayName, reason: error.description)
        }
        return response
    }
}

/// Why an answer could not be decoded (a Swift error is not Sendable).
private struct DecodingFailure: Error {
    let detail: String
}

/// An answer whose content Hark does not need (`{}`, or any object).
struct Empty: Decodable {}
