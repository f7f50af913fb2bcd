import Foundation
import GLibSupport
import HarkTestSupport
import MessageStore
@testable import Transcription
import XCTest

/// An engine damaged after it was installed (here: CTranslate2's library cut
/// in half, as a full disk or a crash mid-update leaves it) reads as damaged,
/// not installed: the window's transcriber says so for the message it failed
/// (no raw Python error), `hark transcriber status` names the file, and
/// `hark transcriber enable` installs only the damaged package again.
final class DamagedEngineTests: XCTestCase {
    private struct Status: Decodable {
        let damaged: [String]?
        let installed: Bool
    }

    private static func status(_ output: String) throws -> Status {
        let line = try XCTUnwrap(output.split(separator: "\n").last { $0.hasPrefix("{") }, output)
        return try JSONDecoder().decode(Status.self, from: Data(line.utf8))
    }

    func testADamagedEngineIsSaidAndRepairedByInstallingWhatIsDamaged() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            // A copy of the checkout's engine, damaged: the shared one stays whole.
            let copy = spoken.home.path("engine")
            let copied = try ChildProcess.run("/bin/cp", ["-a", SpokenMessages.engine.folder, copy], seconds: 300)
            XCTAssertEqual(copied.status, 0, copied.output)
            let library = try XCTUnwrap(FileManager.default.enumerator(atPath: copy)?.compactMap { $0 as? String }
                .first { $0.contains("ctranslate2.libs/libctranslate2") })
            let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: copy + "/" + library))
            try handle.truncate(atOffset: 1_000_000)
            try handle.close()
            var engine = SpokenMessages.engine
            engine.folder = copy
            spoken.engineFolder = copy
            XCTAssertTrue(engine.isInstalled, "by its stamp alone it reads as installed")

            let id = try spoken.record(saying: "Remember to buy milk.", asAMicrophone: false)
            let store = try MessageStore(folder: spoken.storeFolder)
            try store.queueTranscription([id])
            let transcriber = Transcriber(store: store, engine: engine)
            var finished = false
            transcriber.onEvent = { if case .finished = $0 { finished = true } }
            transcriber.wake()
            XCTAssertTrue(MainLoop.iterate(until: { finished }, timeout: 300))
            let failed = try store.message(id)
            XCTAssertEqual(failed.transcriptState, .failed)
            let reason = try XCTUnwrap(try store.transcriptError(of: id))
            XCTAssertTrue(reason.hasPrefix("The transcription engine is damaged (1 file, "), reason)
            XCTAssertTrue(reason.contains("libctranslate2"), reason)
            XCTAssertFalse(reason.contains("Traceback") || reason.contains("Error:"), reason)
            XCTAssertFalse(engine.isInstalled, "found damaged, it is offered to be installed again")
            transcriber.stop()

            var (status, output) = try spoken.hark(["transcriber", "status", "--json"])
            XCTAssertEqual(status, 0, output)
            var state = try Self.status(output)
            XCTAssertEqual(state.damaged, [library])
            XCTAssertFalse(state.installed)
            (status, output) = try spoken.hark(["transcriber", "status"])
            XCTAssertTrue(output.contains("The transcription engine is damaged (1 file, \(library)): install it again with "
                                          + "'hark transcriber enable'"), output)

            (status, output) = try spoken.hark(["transcriber", "enable"], seconds: 600)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("repairing the engine (ctranslate2)"), "only the damaged package is installed again: \(output)")
            XCTAssertFalse(output.contains("creating a Python environment"), output)
            (status, output) = try spoken.hark(["transcriber", "status", "--json"])
            state = try Self.status(output)
            XCTAssertNil(state.damaged)
            XCTAssertTrue(state.installed)
            (status, output) = try spoken.hark(["transcribe", id])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.lowercased().contains("milk"), output)
        }
    }
}
