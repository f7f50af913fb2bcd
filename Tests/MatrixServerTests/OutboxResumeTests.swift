@testable import Conversations
import Foundation
import GLibSupport
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// The outbox against a server that goes away: a send the server could not
/// be reached for is never given up for that (however many tries it took)
/// and goes by itself once the server answers, which also ends "Offline";
/// only a send that waited a day unsent is "Not sent" without a refusal.
/// (An extension of ConversationTests: the same homeserver, started once for the class.)
extension ConversationTests {
    func testASendOfflineForManyTriesGoesByItselfWhenTheServerIsBackAndOfflineEnds() throws {
        let server = try server
        let url = server.url, base = folder.url, voicePath = voicePath
        var stopped = false
        defer { if stopped { try? server.start() } }
        try MainActor.assumeIsolated {
            // Tries come quickly, so that many fail while the server is away.
            var policy = RetryPolicy()
            policy.firstDelay = 0.05
            policy.longestDelay = 0.2
            policy.longestReconnectDelay = 0.2
            let alice = try Self.hark(url, base, policy: policy)
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "Back by itself")
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            try awaitOnLoop { try await alice.syncOnce() }
            var connection: [String?] = []
            let watching = alice.changes.subscribe { change in
                if case .connection(let problem) = change { connection.append(problem) }
            }
            defer { watching.cancel() }

            server.stop()
            stopped = true
            alice.start()
            defer { alice.stop() }
            let entry = try alice.send(message.id, to: roomID)
            let store = alice.store
            let current = { try? store.matrix.outboxEntry(entry.transactionID) }
            // Six failed tries were once the end of it ("Not sent" until Retry was clicked).
            XCTAssertTrue(MainLoop.iterate(until: { (current()?.attempts ?? 0) >= 10 || current()?.state != .queued },
                                           timeout: 120))
            XCTAssertEqual(current()?.state, .queued, current()?.lastError ?? "")
            XCTAssertEqual(try store.matrix.sendState(of: message.id), .sending)
            XCTAssertTrue(current()?.lastError?.hasPrefix("Cannot reach ") == true, current()?.lastError ?? "")
            XCTAssertTrue(MainLoop.iterate(until: { alice.connectionProblem != nil }, timeout: 60), "Offline")

            try server.start()
            stopped = false
            XCTAssertTrue(MainLoop.iterate(until: { current()?.state != .queued }, timeout: 120))
            XCTAssertEqual(current()?.state, .sent, "sent without Retry: \(String(describing: current()))")
            XCTAssertNil(alice.connectionProblem, "the server's first answer ends Offline")
            XCTAssertEqual(connection.last, .some(nil))
            let sent = try XCTUnwrap(current())
            XCTAssertEqual(try Self.audioEvents(bob, roomID: roomID).map(\.event.eventID), [sent.eventID], "exactly one event")
        }
    }

    /// The clock the outbox goes by is the test's: a day passes at once.
    func testASendUnsentForADayIsNotSentUntilRetriedAndThenGoes() throws {
        let server = try server
        let url = server.url, base = folder.url, voicePath = voicePath
        var stopped = false
        defer { if stopped { try? server.start() } }
        try MainActor.assumeIsolated {
            let clock = TestClock()
            let alice = try Self.hark(url, base, clock: { clock.now })
            let bob = try HomeserverTests.signedIn("bob", url)
            let roomID = try HomeserverTests.sharedRoom(alice.client, bob, name: "A day away")
            let message = try Self.voiceMessage(in: alice.store, voicePath)
            try awaitOnLoop { try await alice.syncOnce() }

            server.stop()
            stopped = true
            let entry = try alice.send(message.id, to: roomID)
            let current = { try XCTUnwrap(try alice.store.matrix.outboxEntry(entry.transactionID)) }
            clock.now += 23 * 3600
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }.map(\.transactionID), [entry.transactionID])
            XCTAssertEqual(try current().state, .queued, "23 hours unsent: still trying")

            // A second past the day: two sums of seconds onto a date may land a rounding short of it.
            clock.now += 3600 + 1
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])
            XCTAssertEqual(try current().state, .failed)
            XCTAssertTrue(try current().expired, "not refused: waited too long")
            XCTAssertTrue(try current().lastError?.hasPrefix("Cannot reach ") == true)
            XCTAssertEqual(try alice.store.matrix.sendState(of: message.id), .failed)

            // Retried by the user: it may wait as long again, and goes once the server is back.
            try alice.retry(message.id)
            XCTAssertEqual(try current().waitingSince.timeIntervalSince1970, clock.now.timeIntervalSince1970, accuracy: 0.001)
            XCTAssertFalse(try current().expired)
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }.count, 1, "still away: queued, not given up")
            try server.start()
            stopped = false
            XCTAssertEqual(try awaitOnLoop { await alice.sendQueuedNow() }, [])
            XCTAssertEqual(try current().state, .sent)
            XCTAssertEqual(try Self.audioEvents(bob, roomID: roomID).map(\.event.eventID), [try current().eventID])
        }
    }
}

@MainActor
final class TestClock {
    var now = Date()
}
