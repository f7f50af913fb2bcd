import Foundation
import GLibSupport
import HarkTestSupport
@testable import Matrix
import XCTest

/// The HTTP session never holds up the main loop: a long-poll waits on the
/// loop while everything else goes on, ends as soon as the server has news,
/// can be cancelled, and a server that never answers fails by its deadline.
/// (An extension of HomeserverTests: the same homeserver, started once for the class.)
extension HomeserverTests {
    func testALongPollEndsWhenTheOtherUserSendsAndTheLoopKeepsTurning() throws {
        let homeserver = try XCTUnwrap(HomeserverTests.server?.url, "no homeserver")
        try MainActor.assumeIsolated {
            let alice = try HomeserverTests.signedIn("alice", homeserver)
            let bob = try HomeserverTests.signedIn("bob", homeserver)
            let roomID = try HomeserverTests.sharedRoom(alice, bob, name: "Long poll")
            let since = try awaitOnLoop { try await bob.sync(since: nil) }.nextBatch
            var ticks = 0
            let ticker = MainLoop.timeout(milliseconds: 20) { ticks += 1; return true }
            defer { ticker.remove() }
            // Alice sends half a second into Bob's 20-second wait.
            MainLoop.timeout(milliseconds: 500) {
                Task { @MainActor in
                    _ = try? await alice.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                                     json: ["msgtype": "m.audio", "body": "a.ogg", "url": "mxc://localhost/a"])
                }
                return false
            }
            // As a sync loop does: long-poll again from each answer's token until the message is there.
            let received = try awaitOnLoop {
                var token = since
                while true {
                    let sync = try await bob.sync(since: token, timeoutMilliseconds: 20_000)
                    if let messages = sync.joined[roomID]?.audioMessages, !messages.isEmpty { return messages }
                    token = sync.nextBatch
                }
            }
            XCTAssertEqual(received.count, 1)
            XCTAssertGreaterThan(ticks, 5, "the main loop ran other work while the request waited")
        }
    }

    func testCancellingTheTaskCancelsTheRequest() throws {
        let homeserver = try XCTUnwrap(HomeserverTests.server?.url, "no homeserver")
        try MainActor.assumeIsolated {
            let bob = try HomeserverTests.signedIn("bob", homeserver)
            let since = try awaitOnLoop { try await bob.sync(since: nil) }.nextBatch
            let outcome = Box<Result<SyncResponse, any Error>?>(nil)
            let task = Task { @MainActor in
                do { outcome.value = .success(try await bob.sync(since: since, timeoutMilliseconds: 30_000)) }
                catch { outcome.value = .failure(error) }
            }
            MainLoop.iterate(until: { false }, timeout: 0.3)
            task.cancel()
            XCTAssertTrue(MainLoop.iterate(until: { outcome.value != nil }, timeout: 10), "cancelled at once")
            guard case .failure(let error)? = outcome.value, error as? MatrixError == .cancelled else {
                return XCTFail("\(String(describing: outcome.value))")
            }
        }
    }

    func testAServerThatNeverAnswersFailsByTheDeadline() throws {
        // A socket that listens but never answers: the kernel accepts the connection, nobody replies.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0, listen(listener, 4) == 0,
                      getsockname(listener, raw, &length) == 0 else { throw POSIXError(.EADDRINUSE) }
            }
        }
        let port = UInt16(bigEndian: address.sin_port)
        try MainActor.assumeIsolated {
            let http = HTTPSession(deadlineSeconds: 1)
            let client = MatrixClient(homeserver: "http://127.0.0.1:\(port)", http: http)
            let error = try runFailing(MatrixError.self) { _ = try await client.loginFlows() }
            XCTAssertEqual(error, .unreachable(homeserver: "127.0.0.1:\(port)", reason: "no answer in 1 second"))
        }
    }
}

@MainActor
private final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
