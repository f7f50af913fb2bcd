import Foundation
@testable import Matrix
import Testing

/// Discovery, login, errors and requests, without a server.
@Suite struct ProtocolTests {
    @Test func whatTheUserTypesSaysWhereToLook() {
        #expect(HomeserverInput.parse("@alice:example.org") == .serverName("example.org"))
        #expect(HomeserverInput.parse(" example.org ") == .serverName("example.org"))
        #expect(HomeserverInput.parse("@bob:localhost:8448") == .serverName("localhost:8448"))
        #expect(HomeserverInput.parse("https://matrix.example.org/") == .url("https://matrix.example.org"))
        #expect(HomeserverInput.parse("http://127.0.0.1:8008") == .url("http://127.0.0.1:8008"))
        #expect(HomeserverInput.parse("@alice") == nil)
        #expect(HomeserverInput.parse("not a server") == nil)
        #expect(HomeserverInput.parse("") == nil)
        #expect(HomeserverInput.wellKnownURL(serverName: "example.org")
                == "https://example.org/.well-known/matrix/client")
    }

    @Test func wellKnownNamesTheBaseURL() throws {
        let body = Data(#"{"m.homeserver":{"base_url":"https://matrix.example.org/"},"m.identity_server":{}}"#.utf8)
        #expect(try WellKnownClient.baseURL(from: body, serverName: "example.org") == "https://matrix.example.org")
        #expect(throws: MatrixError.self) {
            try WellKnownClient.baseURL(from: Data(#"{"m.homeserver":{"base_url":"ftp://x"}}"#.utf8), serverName: "e")
        }
        #expect(throws: MatrixError.self) { try WellKnownClient.baseURL(from: Data("<html>".utf8), serverName: "e") }
    }

    @Test func passwordLoginOfferedOrNot() throws {
        let both = try JSONDecoder().decode(LoginFlows.self, from: Data(
            #"{"flows":[{"type":"m.login.sso","identity_providers":[]},{"type":"m.login.password"}]}"#.utf8))
        #expect(both.offersPassword)
        try both.requirePassword(homeserver: "example.org")
        let ssoOnly = try JSONDecoder().decode(LoginFlows.self, from: Data(
            #"{"flows":[{"type":"m.login.sso"},{"type":"m.login.token"}]}"#.utf8))
        #expect(!ssoOnly.offersPassword)
        #expect(throws: MatrixError.passwordLoginUnsupported(homeserver: "matrix.org")) {
            try ssoOnly.requirePassword(homeserver: "matrix.org")
        }
        #expect(MatrixError.passwordLoginUnsupported(homeserver: "matrix.org").description
                == "matrix.org signs in only through its own web page (single sign-on or OAuth), which Hark cannot do yet.")
    }

    /// One flow of a shape Hark does not know (a number for its type, no type,
    /// not even an object) does not hide the password flow beside it.
    @Test func unknownLoginFlowsAreSkipped() throws {
        let odd = try JSONDecoder().decode(LoginFlows.self, from: Data(
            #"{"flows":[{"type":7},{"stages":["x"]},"m.login.weird",null,{"type":"m.login.password"}]}"#.utf8))
        #expect(odd.flows == [LoginFlows.Flow(type: "m.login.password")])
        #expect(odd.offersPassword)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LoginFlows.self, from: Data(#"{"flows":3}"#.utf8)) }
    }

    /// A proxy's HTML page or a broken server's answer becomes a sentence for
    /// people; what it said goes to the details, never into the sentence.
    @Test func rawServerTextStaysInTheDetails() {
        let page = "<html><head><title>500 Internal Server Error</title></head><body>nginx</body></html>"
        let error = MatrixError.from(status: 500, body: Data(page.utf8))
        #expect(error?.description == "The server has a problem of its own (HTTP 500): try again later.")
        #expect(error?.details == "HTTP 500: " + page)
        #expect(MatrixError.from(status: 404, body: Data("<html>Not Found</html>".utf8))?.description
                == "The server does not offer what Hark asked for (HTTP 404): it may not be a Matrix server.")
        let refused = MatrixError.from(status: 403, body: Data(#"{"errcode":"M_FORBIDDEN","error":"You are not invited to this room."}"#.utf8))
        #expect(refused?.description == "The server refused: You are not invited to this room.")
        #expect(refused?.details == "M_FORBIDDEN, HTTP 403")
        let long = String(repeating: "spam ", count: 10_000)
        let flood = MatrixError.from(status: 400, body: Data(#"{"errcode":"M_UNKNOWN","error":"\#(long)"}"#.utf8))
        #expect((flood?.description.count ?? .max) < 400, "a server's own words are cut")
        let undecodable = MatrixError.badResponse(homeserver: "example.org",
                                                  detail: "GET /login: typeMismatch(Swift.String, Path: flows[0].type)")
        #expect(undecodable.description == "example.org gave an answer Hark does not understand.")
        #expect(undecodable.details?.contains("typeMismatch") == true)
        // A full disk is this computer's trouble, not the server's.
        let unsaved = MatrixError.notSaved(path: "/home/a/.local/share/hark/x.download", reason: "No space left on device")
        #expect(unsaved.description == "It could not be saved on this computer: No space left on device.")
        #expect(unsaved.details == "/home/a/.local/share/hark/x.download")
    }

    @Test func loginRequestIsPasswordWithAUserIdentifier() throws {
        let request = Endpoints.login(PasswordLoginRequest(user: "alice", password: "s3cret"))
        #expect(request.method == .post && request.path == "/_matrix/client/v3/login" && !request.authenticated)
        let object = try #require(try JSONSerialization.jsonObject(with: request.body!) as? [String: Any])
        #expect(object["type"] as? String == "m.login.password")
        #expect(object["password"] as? String == "s3cret")
        #expect(object["initial_device_display_name"] as? String == "Hark")
        let identifier = try #require(object["identifier"] as? [String: Any])
        #expect(identifier["type"] as? String == "m.id.user" && identifier["user"] as? String == "alice")
    }

    @Test func errorsBecomeSentences() {
        #expect(MatrixError.from(status: 200, body: Data("{}".utf8)) == nil)
        #expect(MatrixError.from(status: 401, body: Data(
            #"{"errcode":"M_UNKNOWN_TOKEN","error":"Invalid access token passed.","soft_logout":false}"#.utf8))
                == .signedOutByServer)
        #expect(MatrixError.signedOutByServer.description.hasPrefix("Signed out by the server."))
        #expect(MatrixError.from(status: 429, body: Data(
            #"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":2300}"#.utf8))
                == .rateLimited(retryAfterMilliseconds: 2300))
        #expect(MatrixError.rateLimited(retryAfterMilliseconds: 2300).description
                == "The server asks to wait 3 seconds before trying again.")
        // Without retry_after_ms, the Retry-After header (seconds) says how long.
        #expect(MatrixError.from(status: 429, body: Data(#"{"errcode":"M_LIMIT_EXCEEDED"}"#.utf8), retryAfterHeader: "4")
                == .rateLimited(retryAfterMilliseconds: 4000))
        #expect(MatrixError.from(status: 429, body: Data("busy".utf8)) == .rateLimited(retryAfterMilliseconds: nil))
        #expect(MatrixError.from(status: 403, body: Data(#"{"errcode":"M_FORBIDDEN","error":"Invalid password"}"#.utf8))
                == .server(status: 403, code: "M_FORBIDDEN", message: "Invalid password"))
        #expect(MatrixError.from(status: 502, body: Data("Bad Gateway".utf8))
                == .server(status: 502, code: "HTTP 502", message: "Bad Gateway"))
    }

    @Test func idsAreEscapedNeverParsed() {
        // Room version 12 ids have no server part; event ids start with $.
        let send = Endpoints.sendMessage(roomID: "!abc:localhost", transactionID: "hark-1",
                                         json: ["msgtype": "m.text", "body": "x"])
        #expect(send.method == .put)
        #expect(send.path == "/_matrix/client/v3/rooms/%21abc%3Alocalhost/send/m.room.message/hark-1")
        let redact = Endpoints.redact(roomID: "!Zx9", eventID: "$e/v+=", transactionID: "t", reason: nil)
        #expect(redact.path == "/_matrix/client/v3/rooms/%21Zx9/redact/%24e%2Fv%2B%3D/t")
        #expect(Endpoints.join(roomID: "!r:s").path == "/_matrix/client/v3/join/%21r%3As")
    }

    @Test func mediaRequests() throws {
        let upload = Endpoints.upload(Data([1, 2, 3]), contentType: "audio/ogg", fileName: "Dentist on Monday.ogg")
        #expect(upload.url(baseURL: "http://127.0.0.1:8008/")
                == "http://127.0.0.1:8008/_matrix/media/v3/upload?filename=Dentist%20on%20Monday.ogg")
        #expect(upload.contentType == "audio/ogg" && upload.body == Data([1, 2, 3]) && upload.authenticated)
        let download = try #require(Endpoints.download(contentURI: "mxc://localhost/AbC123"))
        #expect(download.path == "/_matrix/client/v1/media/download/localhost/AbC123" && download.authenticated)
        #expect(Endpoints.download(contentURI: "https://x/y") == nil)
        #expect(Endpoints.download(contentURI: "mxc://localhost/") == nil)
        #expect(Endpoints.download(contentURI: "mxc://a/b/c") == nil)
    }

    @Test func syncRequestCarriesFilterSinceAndHold() throws {
        let request = Endpoints.sync(since: "s72_5", timeoutMilliseconds: 30_000)
        #expect(request.serverHoldMilliseconds == 30_000)
        let url = try #require(URLComponents(string: request.url(baseURL: "http://h")))
        let items = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items["since"] == "s72_5" && items["timeout"] == "30000")
        let filter = try #require(try JSONSerialization.jsonObject(with: Data(items["filter"]!.utf8)) as? [String: Any])
        let room = try #require(filter["room"] as? [String: Any])
        let timeline = try #require(room["timeline"] as? [String: Any])
        #expect((timeline["types"] as? [String])?.contains("m.room.message") == true)
        #expect((timeline["types"] as? [String])?.contains("m.room.redaction") == true)
        #expect(Endpoints.sync(since: nil).query.contains { $0.0 == "since" } == false)
    }
}
