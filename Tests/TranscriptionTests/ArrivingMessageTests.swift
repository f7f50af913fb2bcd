import Foundation
import HarkTestSupport
import XCTest

/// With transcription on, what a command adds gets its transcript without
/// the window: `hark import` and `hark record` transcribe what they queued
/// before they end, and `hark transcribe --all` takes what waits in the queue.
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
