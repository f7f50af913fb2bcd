@testable import Conversations
import Foundation
import HarkTestSupport
import Levels
import Matrix
import MessageStore
import XCTest

/// More arrives between two syncs than one holds (Hark closed for a while, a
/// busy room): the sync's timeline is `limited`, and what it left out is
/// fetched with `/messages`, so no voice message is lost in the gap, also
/// when Hark stopped before filling it.
/// (An extension of ConversationTests: the same homeserver, started once for the class.)
extension ConversationTests {
    func testAVoiceMessageFollowedByMoreTextsThanASyncHoldsArrivesWithTheNextSync() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Busy room")
            // History before Hark's first sync, beyond its first page: fetched by scrolling back, not as news.
            let old = try Self.sendVoice(from: bob, to: roomID, voicePath, title: "Old")
            try Self.sendTexts(from: bob, to: roomID, count: 60)
            try awaitOnLoop { try await alice.syncOnce() }

            // While Hark is closed: Bob's voice message, then more texts than a sync holds (50).
            let voice = try Self.sendVoice(from: bob, to: roomID, voicePath)
            try Self.sendTexts(from: bob, to: roomID, count: 60)

            let outcome = try awaitOnLoop { try await alice.syncOnce() }
            XCTAssertEqual(outcome.received.filter { $0.roomID == roomID }.map(\.eventID), [voice])
            let stored = try alice.store.shownIDs(in: .room(roomID)).map { try alice.store.message($0) }
            XCTAssertEqual(stored.map(\.eventID), [voice], "the voice message is in the store, once; the gap ends where the last sync did")
            XCTAssertEqual(stored.first?.unread, true, "news, not history")
            XCTAssertEqual(try alice.store.matrix.roomGaps(), [], "the gap is filled")
            XCTAssertEqual(try alice.store.matrix.room(roomID)?.unreadCount, 1)

            // Scrolling back still reaches the history before the first sync.
            var pages = 0
            while try awaitOnLoop({ try await alice.loadOlderMessages(in: roomID) }) != nil, pages < 20 { pages += 1 }
            let all = try alice.store.shownIDs(in: .room(roomID)).map { try alice.store.message($0) }
            XCTAssertEqual(all.map(\.eventID), [old, voice])
            XCTAssertEqual(all.first?.unread, false, "history is not news")
        }
    }

    /// Hark stops after a limited sync, before the gap is fetched; another
    /// gap opens before it runs again: both are filled by the next sync.
    func testGapsOfSeveralSyncsAreFilledAfterARestart() throws {
        let url = try server.url, base = folder.url, voicePath = voicePath
        try MainActor.assumeIsolated {
            let alice = try Self.hark(url, base)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Two gaps")
            try awaitOnLoop { try await alice.syncOnce() }

            let first = try Self.sendVoice(from: bob, to: roomID, voicePath, title: "First")
            try Self.sendTexts(from: bob, to: roomID, count: 60)
            // What a Hark stopped right after the sync had done: the batch applied, its token kept.
            let store = alice.store, client = alice.client, userID = alice.userID
            try awaitOnLoop {
                let since = store.matrix.syncToken
                let response = try await client.sync(since: since)
                XCTAssertEqual(response.joined[roomID]?.limited, true)
                _ = try SyncApplier(store: store, userID: userID).apply(response, since: since)
                try store.matrix.setSyncToken(response.nextBatch)
            }
            XCTAssertEqual(try store.matrix.roomGaps().map(\.roomID), [roomID], "the gap is kept")
            XCTAssertEqual(try store.shownIDs(in: .room(roomID)), [], "not fetched yet")

            let second = try Self.sendVoice(from: bob, to: roomID, voicePath, title: "Second")
            try Self.sendTexts(from: bob, to: roomID, count: 60)

            // The next Hark: a new session over the same store.
            let restarted = ConversationSession(client: client, store: store)
            let outcome = try awaitOnLoop { try await restarted.syncOnce() }
            XCTAssertEqual(Set(outcome.received.filter { $0.roomID == roomID }.compactMap(\.eventID)), [first, second])
            let stored = try store.shownIDs(in: .room(roomID)).map { try store.message($0).eventID }
            XCTAssertEqual(stored, [first, second], "both, each once, oldest first")
            XCTAssertEqual(try store.matrix.roomGaps(), [])
        }
    }

    @MainActor
    static func sendVoice(from sender: MatrixClient, to roomID: String, _ voicePath: String,
                          title: String = "Voice message") throws -> String {
        let audio = try XCTUnwrap(FileManager.default.contents(atPath: voicePath))
        let uri = try awaitOnLoop { try await sender.upload(audio, contentType: "audio/ogg", fileName: "v.ogg") }
        return try awaitOnLoop {
            try await sender.sendVoiceMessage(
                roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                message: OutgoingVoiceMessage(title: title, fileName: "v.ogg", size: audio.count,
                                              durationMilliseconds: 4000, levels: LevelTrack()),
                contentURI: uri)
        }
    }

    @MainActor
    static func sendTexts(from sender: MatrixClient, to roomID: String, count: Int) throws {
        try awaitOnLoop {
            for index in 0..<count {
                _ = try await sender.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                                 json: ["msgtype": "m.text", "body": "chat \(index)"])
            }
        }
    }
}
