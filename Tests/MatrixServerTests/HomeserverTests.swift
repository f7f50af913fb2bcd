import AudioEngine
import Foundation
import HarkTestSupport
import Levels
@testable import Matrix
import XCTest

/// MatrixClient against a real Synapse (one for the class, started and
/// stopped by its pid): signing in and out, rooms, a voice message sent by
/// one user and received by the other as Element reads it.
final class HomeserverTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?
    static let password = SharedHomeserver.password

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice", "bob"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    var homeserver: String {
        get throws {
            guard let server = Self.server else { throw SynapseFailed(output: "no homeserver (see the log above)") }
            return server.url
        }
    }

    @MainActor
    static func signedIn(_ user: String, _ homeserver: String) throws -> MatrixClient {
        let client = MatrixClient(homeserver: homeserver)
        try awaitOnLoop { try await client.login(user: user, password: Self.password) }
        return client
    }

    // MARK: Signing in and out

    func testPasswordLoginAndAWrongPassword() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let client = MatrixClient(homeserver: homeserver)
            XCTAssertTrue(try awaitOnLoop { try await client.loginFlows() }.offersPassword)
            let session = try awaitOnLoop { try await client.login(user: "alice", password: Self.password) }
            XCTAssertEqual(session.userID, "@alice:localhost")
            XCTAssertEqual(session.homeserver, homeserver)
            XCTAssertFalse(session.accessToken.isEmpty)
            let whoAmI = try awaitOnLoop { try await client.whoAmI() }
            XCTAssertEqual(whoAmI.userID, "@alice:localhost")
            XCTAssertEqual(whoAmI.deviceID, session.deviceID)

            let wrong = try runFailing(MatrixError.self) {
                try await MatrixClient(homeserver: homeserver).login(user: "alice", password: "wrong")
            }
            XCTAssertEqual(wrong, .wrongPassword)
            XCTAssertEqual(wrong?.description, "The user name or password is wrong.")
            let nobody = try runFailing(MatrixError.self) {
                try await MatrixClient(homeserver: homeserver).login(user: "@nobody:localhost", password: "x")
            }
            XCTAssertEqual(nobody, .wrongPassword)
        }
    }

    func testDiscoveryThroughWellKnown() throws {
        let homeserver = try homeserver
        let serverName = try XCTUnwrap(URLComponents(string: homeserver)).host! + ":"
            + String(try XCTUnwrap(URLComponents(string: homeserver)?.port))
        try MainActor.assumeIsolated {
            // A server name (typed, or a Matrix ID's) is looked up in its
            // .well-known document, here served over plain HTTP by Synapse itself.
            let overHTTP = { (name: String) in "http://\(name)/.well-known/matrix/client" }
            XCTAssertEqual(try awaitOnLoop { try await MatrixClient.discover(serverName, wellKnownURL: overHTTP) },
                           homeserver)
            XCTAssertEqual(try awaitOnLoop { try await MatrixClient.discover("@alice:\(serverName)", wellKnownURL: overHTTP) },
                           homeserver)
            XCTAssertEqual(try awaitOnLoop { try await MatrixClient.discover(homeserver + "/") }, homeserver)
            let invalid = try runFailing(MatrixError.self) { _ = try await MatrixClient.discover("no such thing") }
            XCTAssertEqual(invalid, .invalidHomeserver("no such thing"))
        }
    }

    func testAServerThatIsNotThereIsUnreachable() throws {
        try MainActor.assumeIsolated {
            let error = try runFailing(MatrixError.self) {
                _ = try await MatrixClient(homeserver: "http://127.0.0.1:1").loginFlows()
            }
            guard case .unreachable(let name, _)? = error else { return XCTFail("\(String(describing: error))") }
            XCTAssertEqual(name, "127.0.0.1:1")
            XCTAssertTrue(error!.description.hasPrefix("Cannot reach 127.0.0.1:1: "), error!.description)
        }
    }

    func testARevokedTokenIsSignedOutByTheServer() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let client = try Self.signedIn("alice", homeserver)
            let session = try XCTUnwrap(client.session)
            try awaitOnLoop { try await client.logout() }
            XCTAssertNil(client.session)
            let signedOut = try runFailing(MatrixError.self) { _ = try await client.whoAmI() }
            XCTAssertEqual(signedOut, .notSignedIn, "nothing is sent without a session")
            let revoked = MatrixClient(homeserver: homeserver, session: session)
            let error = try runFailing(MatrixError.self) { _ = try await revoked.whoAmI() }
            XCTAssertEqual(error, .signedOutByServer)
            XCTAssertEqual(error?.description,
                           "Signed out by the server. Sign in again to go on; nothing on this computer was lost.")
        }
    }

    func testAStoppedServerIsUnreachableAndTheSessionWorksWhenItIsBack() throws {
        let server = try XCTUnwrap(Self.server, "no homeserver")
        let homeserver = server.url
        try MainActor.assumeIsolated {
            let client = try Self.signedIn("alice", homeserver)
            server.stop()
            let error = try runFailing(MatrixError.self) { _ = try await client.whoAmI() }
            guard case .unreachable? = error else { return XCTFail("\(String(describing: error))") }
            // The same server again (same port, same data): the same token still works.
            try server.start()
            XCTAssertEqual(server.url, homeserver)
            XCTAssertEqual(try awaitOnLoop { try await client.whoAmI() }.userID, "@alice:localhost")
        }
    }

    // MARK: Rooms and messages

    /// A room made by Alice with Bob invited, seen by Bob and joined.
    @MainActor
    static func sharedRoom(_ alice: MatrixClient, _ bob: MatrixClient, name: String) throws -> String {
        let bobID = try XCTUnwrap(bob.session?.userID)
        let roomID = try awaitOnLoop { try await alice.createRoom(name: name, invite: [bobID]) }
        let invites = try awaitOnLoop { try await bob.sync(since: nil) }
        let invite = try XCTUnwrap(invites.invited[roomID], "Bob's sync shows the invitation")
        XCTAssertEqual(invite.name, name)
        XCTAssertEqual(invite.inviter(of: bobID), alice.session?.userID)
        XCTAssertEqual(try awaitOnLoop { try await bob.join(roomID: roomID) }, roomID)
        XCTAssertTrue(try awaitOnLoop { try await bob.joinedRooms() }.contains(roomID))
        return roomID
    }


    func testAVoiceMessageReachesTheOtherUserAsElementReadsIt() throws {
        let folder = try ScratchFolder()
        let path = try oggVoiceFile(in: folder)
        let audio = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let analysis = try Analyzer.analyze(path: path)
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let alice = try Self.signedIn("alice", homeserver), bob = try Self.signedIn("bob", homeserver)
            let roomID = try Self.sharedRoom(alice, bob, name: "Voice")
            let since = try awaitOnLoop { try await bob.sync(since: nil) }.nextBatch

            let contentURI = try awaitOnLoop {
                try await alice.upload(audio, contentType: "audio/ogg", fileName: "Dentist on Monday.ogg")
            }
            XCTAssertTrue(contentURI.hasPrefix("mxc://localhost/"), contentURI)
            let message = OutgoingVoiceMessage(title: "Dentist on Monday", fileName: "Dentist on Monday.ogg",
                                               size: audio.count,
                                               durationMilliseconds: Int((analysis.duration * 1000).rounded()),
                                               levels: analysis.levels)
            let transactionID = MatrixClient.newTransactionID()
            let eventID = try awaitOnLoop {
                try await alice.sendVoiceMessage(roomID: roomID, transactionID: transactionID, message: message,
                                                 contentURI: contentURI)
            }
            // Sent again with the same transaction id (as after a crash): the same event, no second one.
            XCTAssertEqual(try awaitOnLoop {
                try await alice.sendVoiceMessage(roomID: roomID, transactionID: transactionID, message: message,
                                                 contentURI: contentURI)
            }, eventID)

            let sync = try awaitOnLoop { try await bob.sync(since: since) }
            let received = try XCTUnwrap(sync.joined[roomID]).audioMessages
            XCTAssertEqual(received.map(\.event.eventID), [eventID], "exactly one event reached Bob")
            let (event, content) = try XCTUnwrap(received.first)
            XCTAssertEqual(event.sender, "@alice:localhost")
            XCTAssertTrue(content.isVoice)
            XCTAssertEqual(content.durationMilliseconds, message.durationMilliseconds)

            // The event as stored, field by field: what Element and Fractal read.
            let json = try awaitOnLoop { try await bob.eventJSON(roomID: roomID, eventID: eventID) }
            let stored = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let fields = try XCTUnwrap(stored["content"] as? [String: Any])
            XCTAssertEqual(fields["msgtype"] as? String, "m.audio")
            XCTAssertEqual(fields["body"] as? String, "Dentist on Monday")
            XCTAssertEqual(fields["url"] as? String, contentURI)
            let info = try XCTUnwrap(fields["info"] as? [String: Any])
            XCTAssertEqual(info["mimetype"] as? String, "audio/ogg")
            XCTAssertEqual(info["size"] as? Int, audio.count)
            XCTAssertEqual(info["duration"] as? Int, message.durationMilliseconds)
            XCTAssertEqual(fields["org.matrix.msc1767.text"] as? String, "Dentist on Monday")
            let file = try XCTUnwrap(fields["org.matrix.msc1767.file"] as? [String: Any])
            XCTAssertEqual(file["url"] as? String, contentURI)
            XCTAssertEqual(file["name"] as? String, "Dentist on Monday.ogg")
            XCTAssertEqual(file["mimetype"] as? String, "audio/ogg")
            XCTAssertEqual(file["size"] as? Int, audio.count)
            let audioField = try XCTUnwrap(fields["org.matrix.msc1767.audio"] as? [String: Any])
            XCTAssertEqual(audioField["duration"] as? Int, message.durationMilliseconds)
            let waveform = try XCTUnwrap(audioField["waveform"] as? [Int])
            XCTAssertEqual((fields["org.matrix.msc3245.voice"] as? [String: Any])?.isEmpty, true)

            // The waveform is the file's levels: silent, loud, quiet, a hundred values 0…1024.
            XCTAssertEqual(waveform, VoiceWaveform.values(from: analysis.levels))
            XCTAssertEqual(waveform.count, 100)
            XCTAssertTrue(waveform[2..<23].allSatisfy { $0 < 100 }, "\(waveform)")
            XCTAssertTrue(waveform[28..<48].allSatisfy { $0 > 900 }, "\(waveform)")
            XCTAssertTrue(waveform[55..<98].allSatisfy { (300...600).contains($0) }, "\(waveform)")

            // The audio itself, through authenticated media: byte for byte what Alice sent.
            let downloaded = try awaitOnLoop { try await bob.downloadedData(contentURI: contentURI) }
            XCTAssertEqual(downloaded, audio)

            let later = try awaitOnLoop { try await bob.sync(since: sync.nextBatch) }
            XCTAssertEqual(later.joined[roomID]?.audioMessages.count ?? 0, 0, "the resend made no second event")
        }
    }

    func testPlainAudioFromTheOtherUserAndItsRedaction() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let alice = try Self.signedIn("alice", homeserver), bob = try Self.signedIn("bob", homeserver)
            let roomID = try Self.sharedRoom(alice, bob, name: "Music")
            let since = try awaitOnLoop { try await alice.sync(since: nil) }.nextBatch
            let eventID = try awaitOnLoop {
                try await bob.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(), json: [
                    "msgtype": "m.audio", "body": "song.ogg", "url": "mxc://localhost/song",
                    "info": ["mimetype": "audio/ogg", "duration": 61_000, "size": 1000] as [String: any Sendable],
                ])
            }
            let sync = try awaitOnLoop { try await alice.sync(since: since) }
            let received = try XCTUnwrap(sync.joined[roomID]).audioMessages
            XCTAssertEqual(received.map(\.event.eventID), [eventID])
            XCTAssertEqual(received.first?.event.sender, "@bob:localhost")
            XCTAssertEqual(received.first?.content.isVoice, false)
            XCTAssertEqual(received.first?.content.durationMilliseconds, 61_000)
            XCTAssertNil(received.first?.content.waveform)

            // Deleted for everyone by its sender: Alice's next sync says which event went.
            try awaitOnLoop { try await bob.redact(roomID: roomID, eventID: eventID, reason: "wrong file") }
            let after = try awaitOnLoop { try await alice.sync(since: sync.nextBatch) }
            XCTAssertEqual(after.joined[roomID]?.redactedEventIDs, [eventID])
        }
    }

    func testNothingIsSentIntoAnEncryptedRoom() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let alice = try Self.signedIn("alice", homeserver)
            let roomID = try awaitOnLoop { try await alice.createRoom(name: "Secret", encrypted: true) }
            XCTAssertTrue(try awaitOnLoop { try await alice.isEncrypted(roomID: roomID) })
            let message = OutgoingVoiceMessage(title: "Hello", fileName: "Hello.ogg", size: 10,
                                               durationMilliseconds: 1000, levels: LevelTrack())
            let error = try runFailing(MatrixError.self) {
                _ = try await alice.sendVoiceMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                                     message: message, contentURI: "mxc://localhost/x")
            }
            XCTAssertEqual(error, .encryptedRoom)
            XCTAssertEqual(error?.description, "This room is end-to-end encrypted and Hark’s encryption is not set up: Hark sent nothing into it.")
            let sync = try awaitOnLoop { try await alice.sync(since: nil) }
            let room = try XCTUnwrap(sync.joined[roomID])
            XCTAssertTrue(room.isEncrypted)
            XCTAssertFalse(room.timeline.contains { $0.type == "m.room.message" || $0.type == "m.room.encrypted" })
            // An unencrypted room is not taken for one.
            let open = try awaitOnLoop { try await alice.createRoom(name: "Open") }
            XCTAssertFalse(try awaitOnLoop { try await alice.isEncrypted(roomID: open) })
        }
    }
}
