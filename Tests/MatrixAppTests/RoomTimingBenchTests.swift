import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import Levels
import Matrix
import MessageStore
import XCTest

/// `make bench`'s measure of a received voice message reaching the window:
/// from Bob's send being answered (the event is on the server, where
/// Alice's waiting /sync takes it) to its row shown in the open room, and
/// whether that row first drew the event's own waveform, before its audio
/// was downloaded. It measures, never asserts a time: skipped unless
/// HARK_BENCH_ROOM is set (scripts/bench sets it).
final class RoomTimingBenchTests: XCTestCase {
    func testBenchAReceivedMessageReachesTheWindow() throws {
        guard ProcessInfo.processInfo.environment["HARK_BENCH_ROOM"] != nil else {
            throw XCTSkip("a measurement for make bench (HARK_BENCH_ROOM=1)")
        }
        let server = try SynapseServer()
        defer { server.stop() }
        try server.register("alice", password: RoomWindowTests.password)
        try server.register("bob", password: RoomWindowTests.password)
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        let homeserver = server.url
        try MainActor.assumeIsolated {
            let bob = try RoomWindowTests.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                let history = try XCTUnwrap(window.history)
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Timing", invite: [RoomWindowTests.alice]) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.membership == .invite })
                try awaitOnLoop { try await conversations.account.session?.join(roomID) }
                conversations.show(.room(roomID))
                settle(seconds: 1)
                var delays: [Double] = []
                var drawnFromTheEvent = 0
                for _ in 0..<5 {
                    let eventID = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                    let sent = Date()
                    var row: MessageRow?
                    XCTAssertTrue(waitUntil(seconds: 30) {
                        row = history.liveRows.first { $0.message?.eventID == eventID }
                        return row != nil
                    })
                    delays.append(Date().timeIntervalSince(sent) * 1000)
                    if let message = row?.message, message.isAwaitingDownload, (try? store.levels(of: message.id)) != nil {
                        drawnFromTheEvent += 1
                    }
                    settle(seconds: 0.5)
                }
                let median = delays.sorted()[delays.count / 2]
                print(String(format: "BENCH room-row-visible-ms %.0f drawn-from-event %d/%d", median, drawnFromTheEvent,
                             delays.count))
            }
        }
    }
}
