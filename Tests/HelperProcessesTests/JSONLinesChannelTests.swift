import Foundation
import GLibSupport
@testable import HelperProcesses
import XCTest

/// Real helper programs (small Python scripts) over the channel: answers
/// matched by id whatever their order, news sent unasked, an exit that fails
/// what waited, and a line without end that is cut off at the limit instead
/// of filling memory.
final class JSONLinesChannelTests: XCTestCase {
    private static func helper(_ script: String) -> [String] { ["/usr/bin/python3", "-u", "-c", script] }

    /// Answers the two requests it reads in reverse order, after news of its own.
    static let reversing = """
    import json, sys
    first = json.loads(sys.stdin.readline()); second = json.loads(sys.stdin.readline())
    print(json.dumps({"event": "ready"}))
    for request in (second, first):
        print(json.dumps({"id": request["id"], "echo": request["text"]}))
    sys.stdin.readline()
    """

    func testAnswersAreMatchedToTheirCallsByIdAndNewsIsAnEvent() throws {
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            let channel = try JSONLinesChannel(arguments: Self.helper(Self.reversing))
            var events: [String] = []
            channel.onEvent = { events.append(String(decoding: $0, as: UTF8.self)) }
            var answers: [String: String] = [:]
            for id in ["a", "b"] {
                channel.send(Data(#"{"id":"\#(id)","text":"to \#(id)"}"#.utf8), id: id) { result in
                    answers[id] = (try? result.get()).map { String(decoding: $0, as: UTF8.self) } ?? "failed"
                }
            }
            XCTAssertTrue(MainLoop.iterate(until: { answers.count == 2 }, timeout: 30))
            XCTAssertEqual(answers["a"], #"{"id": "a", "echo": "to a"}"#)
            XCTAssertEqual(answers["b"], #"{"id": "b", "echo": "to b"}"#)
            XCTAssertEqual(events, [#"{"event": "ready"}"#])
            var exit: JSONLinesChannel.Failure?
            channel.onExit = { exit = $0 }
            channel.stop()
            XCTAssertTrue(MainLoop.iterate(until: { exit != nil }, timeout: 30))
            XCTAssertEqual(exit, .exited)
            XCTAssertFalse(channel.isOpen)
        }
    }

    func testAnExitFailsTheWaitingCallsOnce() throws {
        try MainActor.assumeIsolated {
            let channel = try JSONLinesChannel(arguments: Self.helper("import sys; sys.stdin.readline(); sys.exit(3)"))
            var results: [Result<Data, JSONLinesChannel.Failure>] = []
            var exits = 0
            channel.onExit = { _ in exits += 1 }
            channel.send(Data(#"{"id":"x"}"#.utf8), id: "x") { results.append($0) }
            XCTAssertTrue(MainLoop.iterate(until: { !results.isEmpty && exits > 0 }, timeout: 30))
            XCTAssertEqual(results.count, 1)
            XCTAssertEqual(exits, 1)
            guard case .failure(.exited) = results.first else { return XCTFail("\(results)") }
            // A call after the end fails at once, from the main loop.
            var late: Result<Data, JSONLinesChannel.Failure>?
            channel.send(Data(#"{"id":"y"}"#.utf8), id: "y") { late = $0 }
            XCTAssertTrue(MainLoop.iterate(until: { late != nil }, timeout: 5))
            guard case .failure(.exited)? = late else { return XCTFail("\(String(describing: late))") }
        }
    }

    /// The awaited form: `call` returns the answer.
    func testCallAwaitsItsAnswer() throws {
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            let channel = try JSONLinesChannel(arguments: Self.helper(
                "import json, sys\nfor line in sys.stdin: print(json.dumps({'id': json.loads(line)['id'], 'ok': True}))"))
            var answer: String?
            Task { @MainActor in
                answer = (try? await channel.call(Data(#"{"id":"q1"}"#.utf8), id: "q1")).map { String(decoding: $0, as: UTF8.self) }
            }
            XCTAssertTrue(MainLoop.iterate(until: { answer != nil }, timeout: 30))
            XCTAssertEqual(answer, #"{"id": "q1", "ok": true}"#)
            channel.stop()
        }
    }

    /// A helper writing without newlines (here 4 MB, endlessly in a real
    /// fault) is stopped once a line passes the limit: its call fails with
    /// that reason, and the reader never held more than the limit.
    func testALineWithoutEndIsCutOffAtTheLimitAndTheHelperStopped() throws {
        try MainActor.assumeIsolated {
            let channel = try JSONLinesChannel(
                arguments: Self.helper("import sys, time\nsys.stdin.readline()\nwhile True: sys.stdout.write('x' * 65536)"),
                longestLine: 256 * 1024)
            var result: Result<Data, JSONLinesChannel.Failure>?
            var exit: JSONLinesChannel.Failure?
            channel.onExit = { exit = $0 }
            channel.send(Data(#"{"id":"big"}"#.utf8), id: "big") { result = $0 }
            XCTAssertTrue(MainLoop.iterate(until: { result != nil && exit != nil }, timeout: 30))
            guard case .failure(.lineTooLong(256 * 1024))? = result else { return XCTFail("\(String(describing: result))") }
            XCTAssertEqual(exit, .lineTooLong(limit: 256 * 1024))
            var ended: Subprocess.Exit?
            channel.process.waitForExit { ended = $0 }
            XCTAssertTrue(MainLoop.iterate(until: { ended != nil }, timeout: 30), "the helper was stopped")
            XCTAssertEqual(ended, .signalled(SIGKILL))
        }
    }
}
