import Foundation
import HarkTestSupport
import XCTest

/// With transcription on, what a command adds gets its transcript without
/// the window: `hark import` and `hark record` transcribe what they queued
/// before they end (Ctrl+C leaves it queued), and `hark transcribe --all`
/// takes what waits in the queue.
final class ArrivingMessageTests: XCTestCase {
    private static let errands = "Remember to buy milk and bread on the way home."
    private static let garage = "The car is ready at the garage on Friday."

    /// The id `hark import` printed for the file titled `title`.
    private func importedID(_ output: String, title: String) throws -> String {
        let line = try XCTUnwrap(output.split(separator: "\n").first { $0.hasSuffix("  \(title)") }, output)
        return String(line.prefix { $0 != " " })
    }

    func testTranscribeAllTakesTheMessagesWaitingInTheQueue() throws {
        let spoken = try SpokenMessages()
        let (enabled, enableOutput) = try spoken.hark(["transcriber", "enable"])
        XCTAssertEqual(enabled, 0, enableOutput)
        let wav = spoken.home.path("errands.wav")
        try PulseAudioServer.speech(Self.errands, to: wav)
        // Imported while the engine cannot run: the import says how it will be
        // transcribed, and the message waits in the queue.
        spoken.engineFolder = spoken.home.path("no-engine")
        var (status, output) = try spoken.hark(["import", wav])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("queued for transcription"), output)
        XCTAssertTrue(output.contains("hark transcribe --all"), output)
        let id = try importedID(output, title: "errands")
        XCTAssertEqual(try spoken.list()[id]?.transcript_state, "queued")

        spoken.engineFolder = SpokenMessages.engine.folder
        (status, output) = try spoken.hark(["transcribe", "--all"])
        XCTAssertEqual(status, 0, output)
        let message = try XCTUnwrap(try spoken.list()[id])
        XCTAssertEqual(message.transcript_state, "done", output)
        XCTAssertTrue(message.transcript?.lowercased().contains("milk") ?? false, "\(message)")
        XCTAssertTrue(output.contains("\(id)\t\(message.transcript ?? "")"), "the transcript is printed: \(output)")
        XCTAssertTrue(output.contains("Transcribing “errands” (1 of 1)…"), "progress on standard error: \(output)")

        (status, output) = try spoken.hark(["transcribe", "--all"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Every message already has a transcript"), "nothing to do is said: \(output)")
    }

    /// Ctrl+C while an import is being transcribed ends the helper and
    /// leaves the message queued, saying so; the import itself stands.
    func testCtrlCWhileAnImportIsTranscribedLeavesItQueued() throws {
        let spoken = try SpokenMessages()
        XCTAssertEqual(try spoken.hark(["transcriber", "enable"]).status, 0)
        let wav = spoken.home.path("long.wav")
        try PulseAudioServer.speech(Array(repeating: Self.errands + " " + Self.garage, count: 4).joined(separator: " "), to: wav)
        let child = try ChildProcess(harkExecutable, ["import", wav], environment: spoken.environment)
        let pid = child.process.processIdentifier
        var helper: Int32?
        let deadline = Date().addingTimeInterval(120)
        while helper == nil, child.isRunning, Date() < deadline {
            if child.output.contains("Transcribing") { helper = Self.children(of: pid).first }
            usleep(5_000)
        }
        let stopped = try XCTUnwrap(helper, child.output)
        // Held still, so that it cannot finish before the Ctrl+C arrives.
        kill(stopped, SIGSTOP)
        kill(pid, SIGINT)
        XCTAssertEqual(child.waitForExit(seconds: 60), 0, child.output)
        XCTAssertTrue(child.output.contains("1 message stays queued for transcription"), child.output)
        let id = try importedID(child.output, title: "long")
        XCTAssertEqual(try spoken.list()[id]?.transcript_state, "queued")
        var ended = false
        for _ in 0..<200 where !ended {
            ended = kill(stopped, 0) != 0 || Self.isZombie(stopped)
            if !ended { usleep(50_000) }
        }
        XCTAssertTrue(ended, "the helper was ended with the command")
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(end, offsetBy: 2)] == "Z"
    }

    /// A process's children (Linux's /proc/PID/task/PID/children).
    private static func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func testAnImportAndARecordingAreTranscribedBeforeTheCommandEnds() throws {
        let spoken = try SpokenMessages()
        XCTAssertEqual(try spoken.hark(["transcriber", "enable"]).status, 0)
        let wav = spoken.home.path("errands.wav")
        try PulseAudioServer.speech(Self.errands, to: wav)
        let (status, output) = try spoken.hark(["import", wav])
        XCTAssertEqual(status, 0, output)
        let imported = try importedID(output, title: "errands")
        XCTAssertTrue(output.contains("Transcribing “errands” (1 of 1)…"), output)
        let recorded = try spoken.record(saying: Self.garage, asAMicrophone: false)

        let listed = try spoken.list()
        XCTAssertEqual(listed[imported]?.transcript_state, "done", output)
        XCTAssertTrue(listed[imported]?.transcript?.lowercased().contains("milk") ?? false, "\(String(describing: listed[imported]))")
        XCTAssertEqual(listed[recorded]?.transcript_state, "done")
        XCTAssertTrue(listed[recorded]?.transcript?.lowercased().contains("garage") ?? false, "\(String(describing: listed[recorded]))")
        let (waiting, statusOutput) = try spoken.hark(["transcriber", "status", "--json"])
        XCTAssertEqual(waiting, 0, statusOutput)
        XCTAssertTrue(statusOutput.contains("\"queued\":0"), "nothing left waiting for the window: \(statusOutput)")
    }
}
