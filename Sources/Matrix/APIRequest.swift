import Foundation

/// One request of the client-server API, built without any I/O: method,
/// path (segments already escaped), query, body. `MatrixClient` sends it
/// with the session's token when `authenticated`.
public struct APIRequest: Sendable, Equatable {
    public enum Method: String, Sendable { case get = "GET", post = "POST", put = "PUT" }

    public var method: Method
    public var path: String
    public var query: [(String, String)]
    public var body: Data?
    public var contentType: String?
    public var authenticated: Bool
    /// How long the server may hold the request (a `/sync` long-poll), in
    /// milliseconds: the client waits that much longer before giving up.
    public var serverHoldMilliseconds: Int

    public init(_ method: Method, _ path: String, query: [(String, String)] = [], body: Data? = nil,
                contentType: String? = nil, authenticated: Bool = true, serverHoldMilliseconds: Int = 0) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.contentType = contentType
        self.authenticated = authenticated
        self.serverHoldMilliseconds = serverHoldMilliseconds
    }

    /// The whole URL on `baseURL` (`https://matrix.example.org`).
    public func url(baseURL: String) -> String {
        var url = normalizedBaseURL(baseURL) + path
        if !query.isEmpty {
            url += "?" + query.map { "\(escapeQuery($0.0))=\(escapeQuery($0.1))" }.joined(separator: "&")
        }
        return url
    }

    public static func == (a: APIRequest, b: APIRequest) -> Bool {
        a.method == b.method && a.path == b.path && a.query.elementsEqual(b.query, by: ==) && a.body == b.body
            && a.contentType == b.contentType && a.authenticated == b.authenticated
            && a.serverHoldMilliseconds == b.serverHoldMilliseconds
    }
}

private let unreserved = CharacterSet(charactersIn:
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

/// One path segment, every reserved character escaped (room ids have `!`
/// and `:`, event ids `$`; never parse or split them).
public func escapePathSegment(_ segment: String) -> String {
    segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
}

func escapeQuery(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
}

private func json<T: Encodable>(_ value: T) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try! encoder.encode(value)
}

private func jsonObject(_ object: [String: Any]) -> Data {
    try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

/// The requests Hark makes.
public enum Endpoints {
    static let client = "/_matrix/client/v3"

    public static func versions() -> APIRequest {
        APIRequest(.get, "/_matrix/client/versions", authenticated: false)
    }

    public static func loginFlows() -> APIRequest {
        APIRequest(.get, "\(client)/login", authenticated: false)
    }

    public static func login(_ login: PasswordLoginRequest) -> APIRequest {
        APIRequest(.post, "\(client)/login", body: json(login), contentType: "application/json", authenticated: false)
    }

    public static func whoAmI() -> APIRequest {
        APIRequest(.get, "\(client)/account/whoami")
    }

    public static func logout() -> APIRequest {
        APIRequest(.post, "\(client)/logout", body: Data("{}".utf8), contentType: "application/json")
    }

    public static func joinedRooms() -> APIRequest {
        APIRequest(.get, "\(client)/joined_rooms")
    }

    /// A private room (unencrypted: Hark cannot speak encrypted rooms yet) with `invite` invited.
    public static func createRoom(name: String?, invite: [String], encrypted: Bool = false) -> APIRequest {
        var body: [String: Any] = ["preset": "private_chat", "invite": invite]
        if let name { body["name"] = name }
        if encrypted {
            body["initial_state"] = [["type": "m.room.encryption", "state_key": "",
                                      "content": ["algorithm": "m.megolm.v1.aes-sha2"]]]
        }
        return APIRequest(.post, "\(client)/createRoom", body: jsonObject(body), contentType: "application/json")
    }

    public static func invite(roomID: String, userID: String) -> APIRequest {
        APIRequest(.post, "\(client)/rooms/\(escapePathSegment(roomID))/invite",
                   body: jsonObject(["user_id": userID]), contentType: "application/json")
    }

    public static func join(roomID: String) -> APIRequest {
        APIRequest(.post, "\(client)/join/\(escapePathSegment(roomID))", body: Data("{}".utf8),
                   contentType: "application/json")
    }

    public static func leave(roomID: String) -> APIRequest {
        APIRequest(.post, "\(client)/rooms/\(escapePathSegment(roomID))/leave", body: Data("{}".utf8),
                   contentType: "application/json")
    }

    /// `POST /_matrix/media/v3/upload?filename=…` with the file's bytes, unchanged.
    public static func upload(_ data: Data, contentType: String, fileName: String) -> APIRequest {
        APIRequest(.post, "/_matrix/media/v3/upload", query: [("filename", fileName)], body: data,
                   contentType: contentType)
    }

    /// `PUT …/send/m.room.message/{txnId}`: the same transaction id gives the same event.
    public static func sendMessage(roomID: String, transactionID: String, content: VoiceMessageContent) -> APIRequest {
        APIRequest(.put, "\(client)/rooms/\(escapePathSegment(roomID))/send/m.room.message/\(escapePathSegment(transactionID))",
                   body: json(content), contentType: "application/json")
    }

    /// Sends any message content given as a JSON object (plain `m.audio`, text…).
    public static func sendMessage(roomID: String, transactionID: String, json content: [String: any Sendable]) -> APIRequest {
        APIRequest(.put, "\(client)/rooms/\(escapePathSegment(roomID))/send/m.room.message/\(escapePathSegment(transactionID))",
                   body: jsonObject(content), contentType: "application/json")
    }

    /// One state event's content (`GET /rooms/{id}/state/{type}/{stateKey}`); 404 when the room has none.
    public static func roomState(roomID: String, type: String, stateKey: String = "") -> APIRequest {
        APIRequest(.get, "\(client)/rooms/\(escapePathSegment(roomID))/state/\(escapePathSegment(type))/\(escapePathSegment(stateKey))")
    }

    public static func redact(roomID: String, eventID: String, transactionID: String, reason: String?) -> APIRequest {
        var body: [String: Any] = [:]
        if let reason { body["reason"] = reason }
        return APIRequest(.put,
                          "\(client)/rooms/\(escapePathSegment(roomID))/redact/\(escapePathSegment(eventID))/\(escapePathSegment(transactionID))",
                          body: jsonObject(body), contentType: "application/json")
    }

    /// One `/sync`: from `since` (nil: the first), held by the server up to `timeoutMilliseconds`.
    public static func sync(since: String?, filter: String = SyncFilter.json(),
                            timeoutMilliseconds: Int = 0) -> APIRequest {
        var query = [("filter", filter), ("timeout", String(timeoutMilliseconds))]
        if let since { query.append(("since", since)) }
        return APIRequest(.get, "\(client)/sync", query: query, serverHoldMilliseconds: timeoutMilliseconds)
    }

    /// A page of a room's timeline going back from `from` (a `prev_batch` or a `/messages` `end`),
    /// no further back than `to` (a `/sync` token) when given.
    public static func messages(roomID: String, from: String, to: String? = nil, limit: Int = 30,
                                filter: String = SyncFilter.roomEventFilterJSON()) -> APIRequest {
        var query = [("dir", "b"), ("from", from), ("limit", String(limit)), ("filter", filter)]
        if let to { query.append(("to", to)) }
        return APIRequest(.get, "\(client)/rooms/\(escapePathSegment(roomID))/messages", query: query)
    }

    /// `POST …/receipt/m.read/{eventId}`: the user has read up to this event.
    public static func readReceipt(roomID: String, eventID: String) -> APIRequest {
        APIRequest(.post, "\(client)/rooms/\(escapePathSegment(roomID))/receipt/m.read/\(escapePathSegment(eventID))",
                   body: Data("{}".utf8), contentType: "application/json")
    }

    /// Authenticated media (`/_matrix/client/v1/media/download/{server}/{id}`),
    /// or nil when `contentURI` is not an `mxc://server/id`.
    public static func download(contentURI: String) -> APIRequest? {
        guard let (server, id) = parseContentURI(contentURI) else { return nil }
        return APIRequest(.get, "/_matrix/client/v1/media/download/\(escapePathSegment(server))/\(escapePathSegment(id))")
    }

    /// `mxc://server/mediaId` as its two parts.
    public static func parseContentURI(_ uri: String) -> (server: String, mediaID: String)? {
        guard uri.hasPrefix("mxc://") else { return nil }
        let rest = uri.dropFirst("mxc://".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let server = String(rest[..<slash]), id = String(rest[rest.index(after: slash)...])
        guard !server.isEmpty, !id.isEmpty, !id.contains("/") else { return nil }
        return (server, id)
    }
}

/// Small answers.
public struct JoinedRooms: Decodable, Sendable, Equatable {
    public var rooms: [String]
    enum CodingKeys: String, CodingKey { case rooms = "joined_rooms" }
}

public struct RoomIDResponse: Decodable, Sendable, Equatable {
    public var roomID: String
    enum CodingKeys: String, CodingKey { case roomID = "room_id" }
}

public struct EventIDResponse: Decodable, Sendable, Equatable {
    public var eventID: String
    enum CodingKeys: String, CodingKey { case eventID = "event_id" }
}

public struct UploadResponse: Decodable, Sendable, Equatable {
    public var contentURI: String
    enum CodingKeys: String, CodingKey { case contentURI = "content_uri" }
}
