import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MatrixCrypto
import MessageStore
import XCTest

/// Starting a conversation: a direct chat as Element makes one, recorded in
/// `m.direct`, encrypted when the person has device keys, and found again
/// the second time rather than made twice.
final class DirectChatTests: SharedServerTestCase {
    override class var users: [String] { ["alice", "bob", "carol"] }

    func testADirectChatIsMadeOnceAndEncryptedWhenThePersonHasKeys() throws {
        let url = try homeserver
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            let alice = try ConversationTests.hark(url, folder.url)
            // Carol has a device with keys; Bob has never published any.
            let carol = MatrixClient(homeserver: url)
            let carolSession = try awaitOnLoop { try await carol.login(user: "carol", password: SharedHomeserver.password) }
            let carolKeys = try KeyServerTests.deviceKeys(carolSession)
            try awaitOnLoop { try await carol.uploadKeys(deviceKeys: carolKeys) }

            let withCarol = try awaitOnLoop { try await alice.directChat(with: "@carol:localhost") }
            XCTAssertTrue(try awaitOnLoop { try await alice.client.isEncrypted(roomID: withCarol) })
            XCTAssertEqual(try alice.store.matrix.room(withCarol)?.isEncrypted, true)
            XCTAssertEqual(try alice.store.matrix.room(withCarol)?.displayName, "carol",
                           "named by Carol's profile from the start (Synapse's name for her is her user name)")
            let withBob = try awaitOnLoop { try await alice.directChat(with: "@bob:localhost") }
            XCTAssertFalse(try awaitOnLoop { try await alice.client.isEncrypted(roomID: withBob) })

            XCTAssertEqual(try awaitOnLoop { try await alice.directChat(with: "@carol:localhost") }, withCarol,
                           "the second time, the same chat")
            let direct = try awaitOnLoop { try await alice.client.accountData(type: "m.direct") }
            XCTAssertEqual(direct?["@carol:localhost"], [.string(withCarol)])
            XCTAssertEqual(direct?["@bob:localhost"], [.string(withBob)])

            let invites = try awaitOnLoop { try await carol.sync(since: nil) }
            XCTAssertNotNil(invites.invited[withCarol], "Carol is invited")

            for wrong in ["carol", "@alice:localhost", "@:localhost", "@carol localhost"] {
                let error = try runFailing(ConversationError.self) { _ = try await alice.directChat(with: wrong) }
                XCTAssertEqual(error, .notAUser(wrong))
            }
            let roomsBefore = try alice.store.matrix.rooms().count
            let nobody = try runFailing(ConversationError.self) { _ = try await alice.directChat(with: "@nobody:localhost") }
            XCTAssertEqual(nobody, .noSuchUser("@nobody:localhost"))
            XCTAssertEqual(nobody?.description, "There is no one with the Matrix ID @nobody:localhost.")
            XCTAssertEqual(try alice.store.matrix.rooms().count, roomsBefore, "no room made for no one")
        }
    }

    func testTheDirectoryFindsPeopleByPartOfTheirNameButNeverTheAccountItself() throws {
        let url = try homeserver
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            let alice = try ConversationTests.hark(url, folder.url)
            let found = try awaitOnLoop { try await alice.searchPeople("caro") }
            XCTAssertEqual(found, [Person(userID: "@carol:localhost", displayName: "carol")])
            XCTAssertEqual(try awaitOnLoop { try await alice.searchPeople("alice") }, [], "the account is no one to talk to")
            XCTAssertEqual(try awaitOnLoop { try await alice.searchPeople("@bob:localhost") }.map(\.userID), ["@bob:localhost"])
        }
    }
}
