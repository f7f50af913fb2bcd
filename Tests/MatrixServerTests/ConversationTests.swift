import AudioEngine
@testable import Conversations
import Foundation
import HarkTestSupport
import Levels
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Hark's store and a ConversationSession against a real Synapse: sends go
/// through the outbox (once, whatever fails on the way), the other user's
/// messages land in the history once, with their audio downloaded and analysed.
final class ConversationTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?
    static let password = HomeserverTests.password

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice", "bob", "carol"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    var server: SynapseServer {
        get throws { try XCTUnwrap(Self.server, "no homeserver (see the log above)") }
    }

    /// The test's scratch folder and a voice file in it (made before the main-actor part).
    var folder: ScratchFolder!
    var voicePath = ""
    override func setUpWithError() throws {
        folder = try ScratchFolder()
        voicePath = try oggVoiceFile(in: folder)
    }
    override func tearDownWithError() throws { folder = nil }

    /// Alice's Hark: a store of its own, signed in (the token given directly: the keyring has its own test).
    @MainActor
    static func hark(_ url: String, _ base: URL, _ user: String = "alice", policy: RetryPolicy = RetryPolicy(),
                     clock: @escaping () -> Date = Date.init) throws -> ConversationSession {
        let client = try HomeserverTests.signedIn(user, url)
        let session = try XCTUnwrap(client.session)
        let store = try MessageStore(folder: base.appendingPathComponent("store-\(user)"))
        try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: session.userID, homeserver: session.homeserver,
                                                       deviceID: session.deviceID))
        return ConversationSession(client: client, store: store, policy: policy, clock: clock)
    }

    /// A message in the store with real audio and levels.
    @MainActor
    static func voiceMessage(in store: MessageStore, _ voicePath: String,
                                     title: String = "Dentist on Monday") throws -> Message {
        try store.importFile(voicePath, title: title)
    }

    /// The audio events of a room as Bob's client reads them from the start.
    @MainActor
    static func audioEvents(_ bob: MatrixClient, roomID: String) throws -> [(event: RoomEvent, content: MessageContent)] {
        try awaitOnLoop { try await freshSync(bob) }.joined[roomID]?.audioMessages ?? []
    }

    /// A first `/sync` as of now. Synapse answers a request identical to one
    /// it answered a moment ago from a cache, so each asks with another timeout
    /// (a first sync answers at once whatever its timeout).
    @MainActor
    static func freshSync(_ client: MatrixClient) async throws -> SyncResponse {
        syncCount += 1
        return try await client.sync(since: nil, timeoutMilliseconds: syncCount)
    }
    @MainActor private static var syncCount = 0

    func testASentMessageReachesTheOtherUserOnceAsAVoiceMessageWithHarksWaveform() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Dentist")
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(try alice.store.matrix.room(roomID)?.displayName, "Dentist")

            let entry = try alice.send(message.id, to: roomID)
            XCTAssertEqual(try alice.store.matrix.sendState(of: message.id), .sending, "queued before any request")
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])
            let sent = try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID))
            XCTAssertEqual(sent.state, .sent)
            let eventID = try XCTUnwrap(sent.eventID)
            XCTAssertEqual(try alice.store.matrix.sendState(of: message.id), .sent)

            let events = try Self.audioEvents(bob, roomID: roomID)
            XCTAssertEqual(events.map(\.event.eventID), [eventID], "exactly one event")
            let content = try XCTUnwrap(events.first?.content)
            XCTAssertTrue(content.isVoice)
            XCTAssertEqual(content.body, "Dentist on Monday")
            XCTAssertEqual(content.waveform, VoiceWaveform.values(from: try XCTUnwrap(try alice.store.levels(of: message.id))))
            let audio = try XCTUnwrap(FileManager.default.contents(atPath: alice.store.audioPath(of: message)))
            XCTAssertEqual(try awaitOnLoop { try await bob.downloadedData(contentURI: content.url!) }, audio, "the file unchanged")

            // Alice's own sync brings her event back: known, not a second message.
            let outcome = try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(outcome.received, [])
            XCTAssertEqual(try alice.store.shownIDs(in: .room(roomID)), [message.id])
            let withTheEvent = try alice.store.shownIDs(in: .all).filter { try alice.store.message($0).eventID == eventID }
            XCTAssertEqual(withTheEvent, [], "the event is the sent message's, kept in its outbox row, not a received one")
        }
    }

    /// The request reached the server but its answer was lost (a crash, a
    /// kill, a dropped connection): the outbox sends again with the same
    /// transaction id, and the server answers with the same event.
    func testASendWhoseAnswerWasLostIsResentAsTheSameEvent() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Lost answer")
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            try awaitOnLoop { try await alice.syncOnce() }
            let entry = try alice.send(message.id, to: roomID)

            // What the killed Hark had done before dying: the upload and the PUT.
            let data = try XCTUnwrap(FileManager.default.contents(atPath: alice.store.audioPath(of: message)))
            let uri = try awaitOnLoop { try await alice.client.upload(data, contentType: "audio/ogg", fileName: "x.ogg") }
            let outgoing = OutgoingVoiceMessage(title: message.title, fileName: "x.ogg", size: data.count,
                                                durationMilliseconds: 4000, levels: LevelTrack())
            let first = try awaitOnLoop {
                try await alice.client.sendVoiceMessage(roomID: roomID, transactionID: entry.transactionID,
                                                        message: outgoing, contentURI: uri)
            }
            XCTAssertEqual(try alice.store.matrix.outboxEntry(entry.transactionID)?.state, .queued, "the answer never arrived")

            // The next Hark: a new session over the same store.
            let restarted = ConversationSession(client: alice.client, store: alice.store)
            XCTAssertEqual(try awaitOnLoop { await restarted.sendQueuedNow() }, [])
            XCTAssertEqual(try alice.store.matrix.outboxEntry(entry.transactionID)?.eventID, first)
            XCTAssertEqual(try Self.audioEvents(bob, roomID: roomID).map(\.event.eventID), [first], "no second event")
        }
    }

    func testAStoppedServerLeavesTheSendQueuedAndItArrivesOnceWhenTheServerIsBack() throws {
        let server = try server
        let url = server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", server.url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Server stopped")
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            try awaitOnLoop { try await alice.syncOnce() }

            server.stop()
            let entry = try alice.send(message.id, to: roomID)
            let queued = try awaitOnLoop { await alice.sendQueuedNow() }
            XCTAssertEqual(queued.map(\.transactionID), [entry.transactionID], "still queued, not lost")
            let failedOnce = try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID))
            XCTAssertEqual(failedOnce.attempts, 1)
            XCTAssertTrue(failedOnce.lastError?.hasPrefix("Cannot reach ") == true, failedOnce.lastError ?? "")
            XCTAssertGreaterThan(failedOnce.nextAttemptAt, Date(), "tried again later, not at once")
            XCTAssertEqual(try alice.store.matrix.sendState(of: message.id), .sending)

            try server.start()
            let later = ConversationSession(client: alice.client, store: alice.store)
            XCTAssertEqual(try awaitOnLoop { await later.sendQueuedNow() }, [])
            let sent = try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID))
            XCTAssertEqual(sent.state, .sent)
            XCTAssertEqual(try Self.audioEvents(bob, roomID: roomID).map(\.event.eventID), [sent.eventID], "exactly one event")
        }
    }

    func testTheOtherUsersVoiceAndAudioMessagesLandOnceAndTheirAudioIsAnalysed() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "From Bob")
            try awaitOnLoop { try await alice.syncOnce() }

            // Bob sends a voice message (a made-up waveform: Hark draws it until
            // the audio is analysed) and a plain audio file without one.
            let path = voicePath
            let audio = try XCTUnwrap(FileManager.default.contents(atPath: path))
            let uri = try awaitOnLoop { try await bob.upload(audio, contentType: "audio/ogg", fileName: "v.ogg") }
            let claimed = LevelTrack(intervalMilliseconds: 40, rms: Array(repeating: -10, count: 100),
                                     peak: Array(repeating: -10, count: 100))
            let voiceEvent = try awaitOnLoop {
                try await bob.sendVoiceMessage(
                    roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                    message: OutgoingVoiceMessage(title: "Voice message", fileName: "v.ogg", size: audio.count,
                                                  durationMilliseconds: 4000, levels: claimed),
                    contentURI: uri)
            }
            let audioEvent = try awaitOnLoop {
                try await bob.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(), json: [
                    "msgtype": "m.audio", "body": "song.mp3", "url": uri,
                    "info": ["mimetype": "audio/ogg", "duration": 4000, "size": audio.count] as [String: any Sendable],
                ])
            }

            let outcome = try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(outcome.received.map(\.eventID), [voiceEvent, audioEvent])
            let voice = try XCTUnwrap(outcome.received.first), plain = try XCTUnwrap(outcome.received.last)
            XCTAssertEqual(voice.origin, .received)
            XCTAssertEqual(voice.sender, "@bob:localhost")
            XCTAssertEqual(voice.roomID, roomID)
            XCTAssertTrue(voice.unread)
            XCTAssertTrue(voice.isAwaitingDownload, "shown at once, its audio still to come")
            XCTAssertEqual(voice.duration, 4)
            XCTAssertEqual(plain.title, "song.mp3")
            XCTAssertEqual(plain.fileName.hasSuffix(".ogg"), true, "stored by its type, not its name")
            let shown = try XCTUnwrap(try alice.store.levels(of: voice.id))
            XCTAssertEqual(VoiceWaveform.values(from: shown), VoiceWaveform.values(from: claimed), "the event's waveform first")
            XCTAssertNil(try alice.store.levels(of: plain.id), "no waveform in the event: drawn flat")
            XCTAssertEqual(try alice.store.matrix.room(roomID)?.unreadCount, 2)
            XCTAssertEqual(try alice.store.matrix.room(roomID)?.lastSender, "@bob:localhost")
            XCTAssertEqual(try alice.store.shownIDs(in: .recordings), [], "received messages are the room's")

            // (Alice's messages from the other tests' rooms, sent from her other devices, come too.)
            XCTAssertGreaterThanOrEqual(try awaitOnLoop { await alice.fetchWaitingDownloads() }, 2)
            let analysed = try Analyzer.analyze(path: path)
            for id in [voice.id, plain.id] {
                let message = try alice.store.message(id)
                XCTAssertEqual(message.state, .ready)
                XCTAssertEqual(FileManager.default.contents(atPath: alice.store.audioPath(of: message)), audio)
                XCTAssertEqual(try alice.store.levels(of: id)?.peak.count, analysed.levels.peak.count, "Hark's own levels")
                XCTAssertEqual(message.duration, analysed.duration, accuracy: 0.01)
            }

            // A sync from the start again (a lost sync token) brings nothing twice.
            let again = try awaitOnLoop { try await Self.freshSync(alice.client) }
            XCTAssertEqual(try SyncApplier(store: alice.store, userID: alice.userID).apply(again, since: nil).received, [])
            XCTAssertEqual(try alice.store.shownIDs(in: .room(roomID)).count, 2)

            // Played: no longer unread, and Bob gets a read receipt.
            alice.markHeard(voice.id)
            XCTAssertFalse(try alice.store.message(voice.id).unread)
            alice.markRoomSeen(roomID)
            XCTAssertEqual(try alice.store.matrix.room(roomID)?.unreadCount, 0)
        }
    }

    /// The window's path: with transcription on, a received message enters
    /// the transcription queue as its audio is downloaded, as a recording does
    /// as it is saved (its transcriber is woken by the session's `.downloaded`).
    func testWithTranscriptionOnADownloadedMessageIsQueuedForItsTranscript() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let carol = try Self.hark(url, base, "carol")
            try carol.store.setSetting(MessageStore.transcriptionSetting, "on")
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(carol.client, bob, name: "To transcribe")
            try awaitOnLoop { try await carol.syncOnce() }
            let audio = try XCTUnwrap(FileManager.default.contents(atPath: voicePath))
            let uri = try awaitOnLoop { try await bob.upload(audio, contentType: "audio/ogg", fileName: "v.ogg") }
            let event = try awaitOnLoop {
                try await bob.sendVoiceMessage(
                    roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                    message: OutgoingVoiceMessage(title: "Voice message", fileName: "v.ogg", size: audio.count,
                                                  durationMilliseconds: 4000, levels: LevelTrack()),
                    contentURI: uri)
            }
            var downloaded: [String] = []
            let watching = carol.changes.subscribe { if case .downloaded(let id) = $0 { downloaded.append(id) } }
            defer { watching.cancel() }
            let outcome = try awaitOnLoop { try await carol.syncOnce() }
            let received = try XCTUnwrap(outcome.received.first { $0.eventID == event })
            XCTAssertEqual(try carol.store.message(received.id).transcriptState, TranscriptState.none,
                           "nothing to transcribe before its audio is here")
            try awaitOnLoop { await carol.fetchWaitingDownloads() }
            XCTAssertTrue(downloaded.contains(received.id))
            XCTAssertEqual(try carol.store.message(received.id).transcriptState, .queued)
            XCTAssertEqual(try carol.store.nextQueuedTranscription()?.id, received.id, "the newest waits first")
        }
    }

    func testARedactionByItsSenderRemovesTheReceivedMessage() throws {
        let url = try server.url, base = folder.url
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Redacted")
            try awaitOnLoop { try await alice.syncOnce() }
            let eventID = try awaitOnLoop {
                try await bob.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(), json: [
                    "msgtype": "m.audio", "body": "oops.ogg", "url": "mxc://localhost/nothing",
                    "info": ["mimetype": "audio/ogg", "duration": 1000] as [String: any Sendable],
                ])
            }
            let received = try XCTUnwrap(try awaitOnLoop { try await alice.syncOnce() }.received.first)
            XCTAssertEqual(received.eventID, eventID)
            try awaitOnLoop { try await bob.redact(roomID: roomID, eventID: eventID) }
            let outcome = try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(outcome.removed, [received.id])
            XCTAssertEqual(try alice.store.shownIDs(in: .room(roomID)), [])
        }
    }

    func testDeleteForEveryoneRedactsTheSentEvent() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Take back")
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            try awaitOnLoop { try await alice.syncOnce() }
            let entry = try alice.send(message.id, to: roomID)
            _ = try awaitOnLoop { await alice.sendQueuedNow() }
            let eventID = try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID)?.eventID)
            let bobSince = try awaitOnLoop { try await Self.freshSync(bob) }.nextBatch
            try awaitOnLoop { try await alice.deleteForEveryone(message.id) }
            let after = try awaitOnLoop { try await bob.sync(since: bobSince) }
            XCTAssertEqual(after.joined[roomID]?.redactedEventIDs, [eventID])

            let never = try Self.voiceMessage(in: alice.store, voicePath, title: "Never sent")
            let error = try runFailing(ConversationError.self) { try await alice.deleteForEveryone(never.id) }
            XCTAssertEqual(error, .notSent)
        }
    }

    func testNothingIsEverSentIntoAnEncryptedRoom() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            let roomID = try awaitOnLoop { try await alice.client.createRoom(name: "Secret", encrypted: true) }
            try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(try alice.store.matrix.room(roomID)?.isEncrypted, true)
            XCTAssertThrowsError(try alice.send(message.id, to: roomID)) { error in
                XCTAssertEqual(error as? ConversationError, .matrix(.encryptedRoom))
            }
            XCTAssertEqual(try alice.store.matrix.sends(of: message.id), [], "not even queued")

            // A room whose encryption the store does not know yet (turned on
            // since the last sync): the outbox asks the server before sending.
            let other = try awaitOnLoop { try await alice.client.createRoom(name: "Turned secret", encrypted: true) }
            try alice.store.matrix.updateRoom(RoomUpdate(id: other, membership: .join, isEncrypted: false))
            let entry = try alice.send(message.id, to: other)
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])
            let refused = try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID))
            XCTAssertEqual(refused.state, .failed)
            XCTAssertEqual(refused.lastError, MatrixError.encryptedRoom.description)
            XCTAssertEqual(try alice.store.matrix.room(other)?.isEncrypted, true)
            let sync = try awaitOnLoop { try await Self.freshSync(alice.client) }
            for id in [roomID, other] {
                XCTAssertFalse(try XCTUnwrap(sync.joined[id]).timeline.contains { $0.type == "m.room.message" },
                               "nothing sent into \(id)")
            }
        }
    }

    func testInvitationsAreListedAndCanBeAcceptedOrDeclined() throws {
        let url = try server.url, base = folder.url
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let carol = try HomeserverTests.signedIn("carol", url)
            let accepted = try awaitOnLoop { try await carol.createRoom(name: "Join me", invite: ["@alice:localhost"]) }
            let declined = try awaitOnLoop { try await carol.createRoom(invite: ["@alice:localhost"]) }
            try awaitOnLoop { try await alice.syncOnce() }
            let rooms = try alice.store.matrix.rooms()
            let invite = try XCTUnwrap(rooms.first { $0.id == accepted })
            XCTAssertEqual(invite.membership, .invite)
            XCTAssertEqual(invite.inviter, "@carol:localhost")
            XCTAssertEqual(try alice.store.matrix.room(declined)?.membership, .invite)

            try awaitOnLoop { try await alice.join(accepted) }
            try awaitOnLoop { try await alice.leave(declined) }
            try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(try alice.store.matrix.room(accepted)?.membership, .join)
            XCTAssertEqual(try alice.store.matrix.room(accepted)?.displayName, "Join me")
            XCTAssertFalse(try alice.store.matrix.rooms().contains { $0.id == declined }, "a declined invitation is gone")
            XCTAssertTrue(try awaitOnLoop { try await alice.client.joinedRooms() }.contains(accepted))

            // A direct chat without a name is called by the other person's name.
            let direct = try awaitOnLoop { try await carol.createRoom(invite: ["@alice:localhost"]) }
            try awaitOnLoop { try await alice.syncOnce() }
            try awaitOnLoop { try await alice.join(direct) }
            try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(try alice.store.matrix.room(direct)?.displayName, "carol")
        }
    }

    func testOlderMessagesAreFetchedAPageAtATime() throws {
        let url = try server.url, base = folder.url
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Long history")
            // Three audio messages, then more text than a first sync holds (50 events).
            var audio: [String] = []
            for index in 0..<3 {
                audio.append(try awaitOnLoop {
                    try await bob.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(), json: [
                        "msgtype": "m.audio", "body": "old \(index).ogg", "url": "mxc://localhost/old\(index)",
                    ])
                })
            }
            for index in 0..<60 {
                _ = try awaitOnLoop {
                    try await bob.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                              json: ["msgtype": "m.text", "body": "chat \(index)"])
                }
            }
            XCTAssertEqual(try awaitOnLoop { try await alice.syncOnce() }.received.filter { $0.roomID == roomID }, [],
                           "the old ones are not in the first page")
            var pages = 0
            var found = 0
            while let count = try awaitOnLoop({ try await alice.loadOlderMessages(in: roomID) }) {
                pages += 1
                found += count
                XCTAssertLessThan(pages, 10, "the start of the room is reached")
            }
            XCTAssertGreaterThan(pages, 1, "a page at a time")
            XCTAssertEqual(found, 3)
            let stored = try alice.store.shownIDs(in: .room(roomID)).map { try alice.store.message($0).eventID }
            XCTAssertEqual(stored, audio, "oldest first, each once")
            XCTAssertFalse(try alice.store.message(try alice.store.shownIDs(in: .room(roomID))[0]).unread,
                           "history is not news")
        }
    }
}
