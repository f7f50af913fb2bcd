import Foundation
import GLibSupport
import HarkTestSupport
import MessageStore
import Transcription
import XCTest

/// One process at a time works a store's queue: the window and a command
/// (or two commands) never run two helpers on the same messages. Here the
/// test's own Transcriber stands for the window.
final class OneWorkerTests: XCTestCase {
    private static let errands = "Remember to buy milk and bread on the way home."

    func testASecondTranscriberWaitsWhileTheFirstHoldsTheQueueThenTakesOver() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let id = try spoken.record(saying: Self.errands, asAMicrophone: false)
            let store = try MessageStore(folder: spoken.storeFolder)
            let window = Transcriber(store: store, engine: SpokenMessages.engine)
            window.prepare()  // a recording began: its helper starts, and holds the queue
            XCTAssertEqual(SpokenMessages.startedHelpers.count, 1)
            try store.queueTranscription([id])
            let other = Transcriber(store: try MessageStore(folder: spoken.storeFolder), engine: SpokenMessages.engine)
            var events: [Transcriber.Event] = []
            other.onEvent = { events.append($0) }
            let helpersBefore = Set(SpokenMessages.helpers)
            other.wake()
            XCTAssertEqual(events, [.waitingForOtherProcess])
            XCTAssertTrue(Set(SpokenMessages.helpers).isSubset(of: helpersBefore), "no second helper")

            window.stop()  // its helper ends, the work not done: the queue is free
            XCTAssertTrue(MainLoop.iterate(until: { events.contains { if case .finished = $0 { return true } else { return false } } },
                                           timeout: 600), "\(events)")
            XCTAssertTrue(events.contains(.finished(messageID: id, state: .done)), "it tried again by itself and took over: \(events)")
            XCTAssertTrue(try store.message(id).transcript?.lowercased().contains("milk") ?? false)
            other.stop()
        }
    }

    /// `hark import` while the window's helper works the queue leaves the
    /// transcription to the window, says so, and prints the transcript the
    /// window stores.
    func testAnImportWhileTheWindowTranscribesLeavesTheWorkToIt() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            XCTAssertEqual(try spoken.hark(["transcriber", "enable"]).status, 0)
            let store = try MessageStore(folder: spoken.storeFolder)
            let window = Transcriber(store: store, engine: SpokenMessages.engine)
            window.prepare()
            XCTAssertEqual(SpokenMessages.startedHelpers.count, 1)
            let wav = spoken.home.path("errands.wav")
            try PulseAudioServer.speech(Self.errands, to: wav)
            let child = try ChildProcess(harkExecutable, ["import", wav], environment: spoken.environment)
            // The window wakes as it does when another process changed the
            // store (it looks every few seconds; here at each tick).
            let tick = MainLoop.timeout(milliseconds: 100) { true }
            defer { tick.remove() }
            XCTAssertTrue(MainLoop.iterate(until: {
                if child.output.contains("waiting for it") { window.wake() }
                return !child.isRunning
            }, timeout: 600), child.output)
            window.stop()
            XCTAssertEqual(child.waitForExit(seconds: 10), 0, child.output)
            XCTAssertTrue(child.output.contains("Another Hark is transcribing"), child.output)
            XCTAssertFalse(child.output.contains("Transcribing “"), "the import ran no helper of its own: \(child.output)")
            let line = try XCTUnwrap(child.output.split(separator: "\n").first { $0.hasSuffix("  errands") }, child.output)
            let id = String(line.prefix { $0 != " " })
            let message = try store.message(id)
            XCTAssertEqual(message.transcriptState, .done)
            XCTAssertTrue(message.transcript?.lowercased().contains("milk") ?? false, "\(String(describing: message.transcript))")
            XCTAssertTrue(child.output.contains("\(id)\t\(message.transcript ?? "-")"), "the window's transcript is printed: \(child.output)")
        }
    }
}
