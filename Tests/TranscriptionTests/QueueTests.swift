import Foundation
import GLibSupport
import HarkTestSupport
import MessageStore
import Transcription
import XCTest

/// The queue with the real helper: failures of the helper cost one message,
/// never the queue; the queue lives in the store; nothing runs when off.
final class QueueTests: XCTestCase {
    private static let long = "The meeting about the new kitchen is moved to next week. "
        + "Bring the drawings, the price list and the measurements of the windows. "
        + "After that we will go to the garden centre and buy the plants for the balcony."
    private static let short = "Remember to buy milk and bread on the way home."

    /// Runs the main loop until every id in `ids` is finished; the events seen.
    @MainActor
    private static func run(_ transcriber: Transcriber, until ids: Set<String>,
                     onEvent: @escaping (Transcriber.Event, Transcriber) -> Void = { _, _ in }) -> [Transcriber.Event] {
        var events: [Transcriber.Event] = []
        var pending = ids
        transcriber.onEvent = { [unowned transcriber] event in
            events.append(event)
            if case .finished(let id, _) = event { pending.remove(id) }
            onEvent(event, transcriber)
        }
        transcriber.wake()
        XCTAssertTrue(MainLoop.iterate(until: { pending.isEmpty }, timeout: 600), "\(events)")
        return events
    }

    func testAHelperKilledMidMessageLeavesItFailedAndTheNextOneTranscribed() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let older = try spoken.record(saying: Self.short, asAMicrophone: false)
            let newer = try spoken.record(saying: Self.long, asAMicrophone: false)  // newest first: this one goes to the helper first
            let store = try MessageStore(folder: spoken.storeFolder)
            try store.queueTranscription([older, newer])
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine)
            var killed: Int32?
            var policy: Int?
            let events = Self.run(transcriber, until: [older, newer]) { event, transcriber in
                if event == .started(messageID: newer), let pid = SpokenMessages.startedHelpers.first {
                    policy = Self.schedulingPolicy(of: pid)
                    killed = pid
                    kill(pid, SIGKILL)
                }
            }
            transcriber.stop()
            XCTAssertNotNil(killed)
            XCTAssertEqual(policy, 5, "the helper runs in Linux's idle class (SCHED_IDLE): the window never waits for it")
            XCTAssertEqual(try store.message(newer).transcriptState, .failed, "\(events)")
            XCTAssertNotNil(try store.transcriptError(of: newer))
            XCTAssertEqual(try store.message(older).transcriptState, .done, "\(events)")
            XCTAssertTrue(try store.message(older).transcript?.lowercased().contains("milk") ?? false)
            let helpers = events.filter { if case .helperStarted = $0 { return true } else { return false } }
            XCTAssertEqual(helpers.count, 2, "a new helper for the rest of the queue: \(events)")
        }
    }

    /// A helper starved of CPU (in the idle class, on a machine whose cores
    /// are busy with other work: here two endless loops) is not hung: its
    /// deadline counts only the time it could have run, so it waits for as
    /// long as the cores are busy (here six times its deadline: putting the
    /// deadline off three times, as Hark did before, allowed four), and its
    /// message is transcribed once they are free.
    func testAHelperStarvedByABusyMachineIsGivenMoreTime() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let message = try spoken.record(saying: Self.short, asAMicrophone: false)
            let store = try MessageStore(folder: spoken.storeFolder)
            try store.queueTranscription([message])
            let deadline = 4.0
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine, deadline: { _ in deadline })
            var hogs: [ChildProcess] = []
            var workingWhenFreed = false
            let events = Self.run(transcriber, until: [message]) { event, transcriber in
                guard event == .started(messageID: message) else { return }
                let helper = SpokenMessages.startedHelpers.first
                hogs = (0..<ProcessInfo.processInfo.activeProcessorCount).compactMap {
                    _ in try? ChildProcess("/bin/sh", ["-c", "while :; do :; done"])
                }
                _ = MainLoop.timeout(milliseconds: UInt32(6 * deadline * 1000)) { [unowned transcriber] in
                    // Still on it, with the same helper: starved all along, not failed.
                    workingWhenFreed = transcriber.isBusy && SpokenMessages.helpers.first == helper
                    hogs.forEach { kill($0.process.processIdentifier, SIGKILL) }
                    return false
                }
            }
            transcriber.stop()
            hogs.forEach { kill($0.process.processIdentifier, SIGKILL) }
            XCTAssertFalse(hogs.isEmpty)
            XCTAssertTrue(workingWhenFreed, "the helper was at work on the message while the cores were busy: \(events)")
            XCTAssertEqual(try store.message(message).transcriptState, .done, "\(events)")
            XCTAssertTrue(try store.message(message).transcript?.lowercased().contains("milk") ?? false)
            let helpers = events.filter { if case .helperStarted = $0 { return true } else { return false } }
            XCTAssertEqual(helpers.count, 1, "one helper throughout: \(events)")
        }
    }

    func testAHungHelperIsEndedAtItsDeadlineAndTheQueueGoesOn() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let older = try spoken.record(saying: Self.short, asAMicrophone: false)
            let newer = try spoken.record(saying: Self.long, asAMicrophone: false)
            let store = try MessageStore(folder: spoken.storeFolder)
            try store.queueTranscription([older, newer])
            // The long message's deadline is short: the helper is stopped (SIGSTOP,
            // a hang that never answers) on it, and must be ended to go on.
            let shortDeadline = try store.message(newer).duration
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine,
                                          deadline: { $0 >= shortDeadline ? 5 : 300 })
            var stopped: Int32?
            let events = Self.run(transcriber, until: [older, newer]) { event, transcriber in
                if event == .started(messageID: newer), let pid = SpokenMessages.startedHelpers.first {
                    stopped = pid
                    kill(pid, SIGSTOP)
                }
            }
            transcriber.stop()
            let pid = try XCTUnwrap(stopped)
            XCTAssertEqual(try store.message(newer).transcriptState, .failed)
            XCTAssertTrue(try store.transcriptError(of: newer)?.contains("deadline") ?? false)
            XCTAssertEqual(try store.message(older).transcriptState, .done, "\(events)")
            XCTAssertTrue(MainLoop.iterate(until: { kill(pid, 0) != 0 || Self.isZombie(pid) }, timeout: 10),
                          "the hung helper was ended")
        }
    }

    func testTheQueueSurvivesARestartAndRunsNewestFirst() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let (enabled, output) = try spoken.hark(["transcriber", "enable"])
            XCTAssertEqual(enabled, 0, output)
            // Recorded while the engine could not run: queued by the processes
            // that recorded them, which have ended.
            spoken.engineFolder = spoken.home.path("no-engine")
            let first = try spoken.record(saying: Self.short, asAMicrophone: false)
            let second = try spoken.record(saying: "The car is ready at the garage on Friday.", asAMicrophone: false)
            let listed = try spoken.list()
            XCTAssertEqual(listed[first]?.transcript_state, "queued")
            XCTAssertEqual(listed[second]?.transcript_state, "queued")
            let store = try MessageStore(folder: spoken.storeFolder)
            XCTAssertEqual(try store.queuedTranscriptionCount(), 2)
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine)
            let events = Self.run(transcriber, until: [first, second])
            transcriber.stop()
            let order = events.compactMap { if case .started(let id) = $0 { return id } else { return nil } }
            XCTAssertEqual(order, [second, first], "newest first")
            XCTAssertEqual(try store.message(first).transcriptState, .done)
            XCTAssertTrue(try store.message(second).transcript?.lowercased().contains("garage") ?? false)
            XCTAssertEqual(try store.queuedTranscriptionCount(), 0)
        }
    }

    func testNothingIsQueuedOrRunWhenTranscriptionIsOff() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let (status, output) = try spoken.hark(["transcriber", "status", "--json"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("\"enabled\":false"), output)
            let id = try spoken.record(saying: Self.short, asAMicrophone: false)
            let wav = spoken.home.path("import.wav")
            try PulseAudioServer.speech(Self.short, to: wav)
            let (imported, importOutput) = try spoken.hark(["import", wav])
            XCTAssertEqual(imported, 0, importOutput)
            for message in try spoken.list().values {
                XCTAssertEqual(message.transcript_state, "none", "\(message)")
            }
            let store = try MessageStore(folder: spoken.storeFolder)
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine)
            var events: [Transcriber.Event] = []
            transcriber.onEvent = { events.append($0) }
            transcriber.wake()
            XCTAssertEqual(events, [.idle], "no helper starts")
            XCTAssertTrue(SpokenMessages.helpers.isEmpty)
            XCTAssertEqual(try store.message(id).transcriptState, TranscriptState.none)
            // Turned off after being on: new messages are no longer queued.
            XCTAssertEqual(try spoken.hark(["transcriber", "enable"]).status, 0)
            XCTAssertEqual(try spoken.hark(["transcriber", "disable"]).status, 0)
            let later = try spoken.record(source: "audiotestsrc is-live=true wave=silence", duration: 1)
            XCTAssertEqual(try spoken.list()[later]?.transcript_state, "none")
        }
    }

    /// A process's scheduling policy (field 41 of /proc/PID/stat; 5 is SCHED_IDLE).
    /// Read once the process runs Python (chrt sets the policy, then execs it).
    private static func schedulingPolicy(of pid: Int32) -> Int? {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline,
              !((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "").contains("python") {
            usleep(10_000)
        }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 38 ? Int(fields[38]) : nil  // fields from the state (3rd) on
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(end, offsetBy: 2)] == "Z"
    }
}
