@testable import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// A page of older messages with none of the types Hark asks for, but an
/// `end` (the spec allows it: the server filtered the page empty) is not the
/// room's start: scrolling back goes on past it. Synapse does not answer so
/// here, so the server is a broken one of the test's own.
final class EmptyPageTests: XCTestCase {
    func testAnEmptyPageWithAnEndIsNotTheStartOfTheRoom() throws {
        let folder = try ScratchFolder()
        let roomID = "!quiet:broken.example"
        let voice = """
            {"type": "m.room.message", "event_id": "$voice", "sender": "@bob:broken.example",
             "origin_server_ts": 1700000000000, "room_id": "\(roomID)",
             "content": {"msgtype": "m.audio", "body": "Voice message", "url": "mxc://broken.example/voice",
                         "info": {"mimetype": "audio/ogg", "duration": 1000}, "org.matrix.msc3245.voice": {}}}
            """
        let server = try BrokenServer(routes: [
            "~GET /_matrix/client/v3/rooms/[^/]+/messages\\?.*from=page1(&.*)?": .json(#"{"chunk": [], "start": "page1", "end": "page2"}"#),
            "~GET /_matrix/client/v3/rooms/[^/]+/messages\\?.*from=page2(&.*)?": .json(#"{"chunk": [\#(voice)], "start": "page2"}"#),
        ])
        defer { server.stop() }
        let url = server.url
        try MainActor.assumeIsolated {
            let (client, store) = try signedInAtBrokenServer(url, storeIn: folder)
            try store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .join, name: "Quiet"))
            try store.matrix.setPreviousBatch(roomID: roomID, "page1", complete: false)
            let alice = ConversationSession(client: client, store: store)

            XCTAssertEqual(try awaitOnLoop { try await alice.loadOlderMessages(in: roomID) }, 0, "nothing on this page")
            XCTAssertEqual(try store.matrix.room(roomID)?.historyComplete, false, "not the start")
            XCTAssertEqual(try awaitOnLoop { try await alice.loadOlderMessages(in: roomID) }, 1)
            XCTAssertEqual(try store.shownIDs(in: .room(roomID)).map { try store.message($0).eventID }, ["$voice"])
            XCTAssertEqual(try store.matrix.room(roomID)?.historyComplete, true, "no end: the start")
            XCTAssertNil(try awaitOnLoop { try await alice.loadOlderMessages(in: roomID) })
        }
    }
}

/// A server whose `/messages` tokens go round in a circle never says where a
/// gap ends: the sync still ends (a bounded number of pages), the gap waiting
/// for the next one.
final class EndlessGapTests: XCTestCase {
    func testASyncEndsThoughTheServerNeverSaysWhereAGapEnds() throws {
        let folder = try ScratchFolder()
        let roomID = "!circle:broken.example"
        let server = try BrokenServer(routes: [
            "~GET /_matrix/client/v3/sync\\?.*": .json(#"{"next_batch": "s2"}"#),
            "~GET /_matrix/client/v3/rooms/[^/]+/messages\\?.*from=left(&.*)?": .json(#"{"chunk": [], "start": "left", "end": "right"}"#),
            "~GET /_matrix/client/v3/rooms/[^/]+/messages\\?.*from=right(&.*)?": .json(#"{"chunk": [], "start": "right", "end": "left"}"#),
        ])
        defer { server.stop() }
        let url = server.url
        try MainActor.assumeIsolated {
            let (client, store) = try signedInAtBrokenServer(url, storeIn: folder)
            try store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .join, name: "Circle"))
            try store.matrix.setSyncToken("s1")
            try store.matrix.addGap(roomID: roomID, from: "left", to: "s0")
            let alice = ConversationSession(client: client, store: store)

            XCTAssertEqual(try awaitOnLoop { try await alice.syncOnce() }.received, [])
            XCTAssertEqual(store.matrix.syncToken, "s2")
            XCTAssertEqual(try store.matrix.roomGaps().map(\.roomID), [roomID], "left for the next sync")
            let pages = server.requests.filter { $0.contains("/messages?") }.count
            XCTAssertGreaterThan(pages, 2, "it went round")
            XCTAssertLessThanOrEqual(pages, GapFiller(store: store, client: client, userID: alice.userID).pagesPerSync)
        }
    }
}
