@testable import Conversations
import Foundation
import GLibSupport
import HarkTestSupport
import Levels
import Matrix
import MessageStore
import XCTest

/// A send reached the server but its answer was lost (Hark killed), then the
/// token was revoked: signing in again makes a new device, whose send under
/// the same transaction id the server would not match. The new session syncs
/// first and knows the event by its upload: one event, one message, sent.
/// (An extension of ConversationTests: the same homeserver, started once for the class.)
extension ConversationTests {
    func testASendWhoseAnswerWasLostBeforeSigningInAgainIsKnownByItsUploadNotSentTwice() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let (again, bob, roomID, message, first) = try Self.lostAnswerThenSignedInAgain(url, base, voicePath,
                                                                                            room: "Signed in again")
            XCTAssertEqual(try awaitOnLoop { await again.sendQueuedNow() }, [])
            try Self.checkSentOnce(again, bob, roomID: roomID, message: message, event: first)
        }
    }

    /// The window's way: the outbox and the sync run side by side; the upload waits for the sync.
    func testInTheWindowASendWhoseAnswerWasLostBeforeSigningInAgainWaitsForTheSync() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let (again, bob, roomID, message, first) = try Self.lostAnswerThenSignedInAgain(url, base, voicePath,
                                                                                            room: "Window signed in again")
            again.start()
            defer { again.stop() }
            XCTAssertTrue(MainLoop.iterate(until: { (try? again.store.matrix.sendState(of: message.id)) != .sending }, timeout: 60))
            again.stop()
            try Self.checkSentOnce(again, bob, roomID: roomID, message: message, event: first)
        }
    }

    /// The sync the upload waits for never comes (the server is away): each
    /// failed sync counts as the send's try, so after a day it is "Not sent",
    /// and Retry sends it (as the event that arrived) once the server is back.
    func testAfterSigningInAgainAnUploadedSendWhoseSyncFailsForADayIsNotSentUntilRetried() throws {
        let server = try server
        let url = server.url, base = folder.url, voicePath = voicePath
        var stopped = false
        defer { if stopped { try? server.start() } }
        try MainActor.assumeIsolated {
            let clock = TestClock()
            let (again, bob, roomID, message, first) = try Self.lostAnswerThenSignedInAgain(
                url, base, voicePath, room: "Away after signing in again", clock: { clock.now })
            clock.now = Date()  // the send was queued (by the real clock) just now
            server.stop()
            stopped = true
            XCTAssertEqual(try awaitOnLoop { await again.sendQueuedNow() }.count, 1)
            let waiting = try XCTUnwrap(try again.store.matrix.sends(of: message.id).first)
            XCTAssertEqual(waiting.state, .queued)
            XCTAssertEqual(waiting.attempts, 1, "the failed sync was its try")
            XCTAssertTrue(waiting.lastError?.hasPrefix("Cannot reach ") == true, waiting.lastError ?? "")

            clock.now += 24 * 3600 + 1
            XCTAssertEqual(try awaitOnLoop { await again.sendQueuedNow() }, [])
            XCTAssertEqual(try again.store.matrix.sends(of: message.id).map(\.state), [.failed])
            XCTAssertEqual(try again.store.matrix.sends(of: message.id).map(\.expired), [true])

            try server.start()
            stopped = false
            try again.retry(message.id)
            XCTAssertEqual(try awaitOnLoop { await again.sendQueuedNow() }, [])
            try Self.checkSentOnce(again, bob, roomID: roomID, message: message, event: first)
        }
    }

    /// Alice's Hark sent a message whose answer it never got, then her token
    /// was revoked and she signed in again: the new session, and the event.
    @MainActor
    private static func lostAnswerThenSignedInAgain(_ url: String, _ base: URL, _ voicePath: String, room: String,
                                                    clock: @escaping () -> Date = Date.init) throws
        -> (session: ConversationSession, bob: MatrixClient, roomID: String, message: Message, event: String) {
        let alice = try hark(url, base)
        let bob = try HomeserverTests.signedIn("bob", url)
        let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: room)
        let message = try voiceMessage(in: alice.store, voicePath)
        try awaitOnLoop { try await alice.syncOnce() }
        let entry = try alice.send(message.id, to: roomID)

        // What the killed Hark had done: the upload (kept in the row) and the PUT, whose answer it never read.
        let data = try XCTUnwrap(FileManager.default.contents(atPath: alice.store.audioPath(of: message)))
        let uri = try awaitOnLoop { try await alice.client.upload(data, contentType: "audio/ogg", fileName: "x.ogg") }
        try alice.store.matrix.setUploaded(entry.transactionID, contentURI: uri)
        let outgoing = OutgoingVoiceMessage(title: message.title, fileName: "x.ogg", size: data.count,
                                            durationMilliseconds: 4000, levels: LevelTrack())
        let first = try awaitOnLoop {
            try await alice.client.sendVoiceMessage(roomID: roomID, transactionID: entry.transactionID,
                                                    message: outgoing, contentURI: uri)
        }
        XCTAssertEqual(try alice.store.matrix.outboxEntry(entry.transactionID)?.state, .queued, "the answer never arrived")

        // The token revoked; signing in again makes a new device.
        let oldDevice = alice.client.session?.deviceID
        try awaitOnLoop { try await alice.client.logout() }
        let client = try HomeserverTests.signedIn("alice", url)
        let session = try XCTUnwrap(client.session)
        XCTAssertNotEqual(session.deviceID, oldDevice)
        try alice.store.matrix.setMatrixAccount(MatrixAccountRecord(userID: session.userID, homeserver: session.homeserver,
                                                             deviceID: session.deviceID))
        return (ConversationSession(client: client, store: alice.store, clock: clock), bob, roomID, message, first)
    }

    @MainActor
    private static func checkSentOnce(_ session: ConversationSession, _ bob: MatrixClient, roomID: String,
                                      message: Message, event: String) throws {
        let store = session.store
        XCTAssertEqual(try store.matrix.sends(of: message.id).map(\.state), [.sent])
        XCTAssertEqual(try store.matrix.sends(of: message.id).map(\.eventID), [event], "sent as the event that arrived")
        XCTAssertEqual(try audioEvents(bob, roomID: roomID).map(\.event.eventID), [event], "exactly one event")
        try awaitOnLoop { try await session.syncOnce() }
        XCTAssertEqual(try store.shownIDs(in: .room(roomID)), [message.id], "one message, Hark's own, no received copy")
        XCTAssertEqual(try store.matrix.sendState(of: message.id), .sent)
    }
}
