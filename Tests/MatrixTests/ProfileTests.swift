import Foundation
import Matrix
import Testing

/// A person's profile, asked before a direct chat is made: the request and its answer, without a server.
@Suite struct ProfileTests {
    @Test func theProfileIsAskedByTheEscapedMatrixID() {
        let request = Endpoints.profile(userID: "@carol/x:localhost")
        #expect(request.method == .get)
        #expect(request.path == "/_matrix/client/v3/profile/%40carol%2Fx%3Alocalhost")
        #expect(request.authenticated)
    }

    @Test func aProfileWithoutANameOrWithAWrongOneHasNone() throws {
        func decode(_ text: String) throws -> Profile { try JSONDecoder().decode(Profile.self, from: Data(text.utf8)) }
        #expect(try decode(#"{"displayname": "Carol Singer", "avatar_url": "mxc://x/y"}"#).displayName == "Carol Singer")
        #expect(try decode(#"{"avatar_url": "mxc://x/y"}"#).displayName == nil)
        #expect(try decode(#"{"displayname": null}"#).displayName == nil)
        #expect(try decode(#"{"displayname": 7}"#).displayName == nil)
    }
}
