import Foundation
import HarkTestSupport
import XCTest

/// `hark record` into the store starts recording as `hark record --output`
/// does, however many messages the store holds and whatever wrote to it
/// last: its checks (damage, the files against the rows) come after the
/// first audio. Each take is laid on the wall clock by the timed microphone
/// (see CaptureTimingTests) and measured from the command's start.
///
/// The tests assert what was recorded, never how soon: `make bench` runs
/// this with `HARK_CAPTURE_STORE` (an `XDG_DATA_HOME` holding a store of
/// 100,000 messages) and `HARK_CAPTURE_RUNS=5`, and reports the medians
/// beside the goal (within 50 ms of the command's start).
final class StoreRecordTimingTests: XCTestCase {
    private var server: PulseAudioServer!
    private var microphone: TimedMicrophone!
    private var scratch: ScratchFolder!

    override func setUpWithError() throws {
        server = try PulseAudioServer()
        microphone = try TimedMicrophone(server: server)
        scratch = try ScratchFolder()
    }

    override func tearDownWithError() throws {
        if let microphone {
            XCTAssertEqual(microphone.overflows, 0, "the test microphone kept up in real time")
            microphone.stop()
        }
        microphone = nil
        server = nil
        scratch = nil
    }

    private static let runs = Int(ProcessInfo.processInfo.environment["HARK_CAPTURE_RUNS"] ?? "") ?? 1

    /// The data folder whose store is recorded into: the bench's, or a new one here.
    private lazy var dataHome = ProcessInfo.processInfo.environment["HARK_CAPTURE_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? scratch.path("data")

    private var environment: [String: String] {
        server.clientEnvironment.merging(["XDG_DATA_HOME": dataHome, "HOME": scratch.url.path]) { $1 }
    }

    private func hark(_ arguments: [String]) throws -> String {
        let (status, output) = try ChildProcess.run(harkExecutable, arguments, environment: environment, seconds: 120)
        XCTAssertEqual(status, 0, "hark \(arguments.joined(separator: " ")): \(output)")
        return output
    }

    /// The ways a store is left before a take.
    private enum Before: String, CaseIterable {
        case quiet = "quiet"
        case ownWrite = "after Hark's write"
        case othersWrite = "after another's change"
    }

    private func prepare(_ before: Before, tone: String) throws {
        switch before {
        case .quiet:
            _ = try hark(["list", "--limit", "1"])  // nothing written since the last command
        case .ownWrite:  // an import and its deletion: the folder changed, the count did not
            let imported = try hark(["import", tone])
            _ = try hark(["delete", String(try XCTUnwrap(imported.split(separator: " ").first))])
        case .othersWrite:  // a note put in messages/ (or taken out)
            let note = URL(fileURLWithPath: dataHome).appendingPathComponent("hark/messages/planted.txt").path
            if unlink(note) != 0 { XCTAssertTrue(FileManager.default.createFile(atPath: note, contents: Data("note".utf8))) }
        }
    }

    /// One take of about a second: seconds from the command's start to its
    /// first recorded sample, and the recording's alignment.
    private func take(_ arguments: [String], file: (String) throws -> String) throws -> (Double, TimedMicrophone.Alignment) {
        let recorder = try ChildProcess(harkExecutable, ["record"] + arguments, environment: environment)
        let started = TimedMicrophone.now()
        usleep(1_200_000)
        recorder.process.interrupt()
        XCTAssertEqual(recorder.waitForExit(seconds: 30), 0, recorder.output)
        let alignment = try microphone.align(try file(recorder.output), near: started)
        XCTAssertGreaterThan(alignment.startMatch, 0.5, "the start is recognised: \(alignment)")
        XCTAssertGreaterThan(alignment.endMatch, 0.8, "the end is recognised: \(alignment)")
        XCTAssertEqual(alignment.breaks, [], "nothing dropped inside: \(alignment)")
        return (alignment.firstSample - started, alignment)
    }

    func testRecordingIntoTheStoreKeepsEverythingFromItsStartAfterAnyWrite() throws {
        let tone = scratch.path("tone.ogg")
        try gstLaunch("audiotestsrc num-buffers=10 samplesperbuffer=960 ! audio/x-raw,rate=48000,channels=1 "
                      + "! opusenc ! oggmux ! filesink location=\(tone)")
        _ = try hark(["import", tone])  // a store with a message, when it is this test's own
        // The first start of a freshly built binary pays the loader's cold start.
        _ = try hark(["record", "--output", scratch.path("warm-up.ogg"), "--duration", "0.2",
                      "--source", "audiotestsrc is-live=true"])
        let count = try hark(["list", "--json"]).components(separatedBy: "\"id\"").count - 1
        XCTAssertGreaterThan(count, 0)

        var starts: [String: [Double]] = [:]
        for run in 0..<Self.runs {
            let output = scratch.path("take-\(run).ogg")
            starts["--output, no store", default: []].append(try take(["--output", output]) { _ in output }.0)
            for before in Before.allCases {
                try prepare(before, tone: tone)
                var id = ""
                let (start, _) = try take([]) { printed in
                    id = try XCTUnwrap(printed.split(separator: "\n").map(String.init).last { Self.isID($0) }, printed)
                    return URL(fileURLWithPath: self.dataHome).appendingPathComponent("hark/messages/\(id).ogg").path
                }
                starts["into \(count) messages, \(before.rawValue)", default: []].append(start)
                XCTAssertTrue(try hark(["list", "--limit", "1"]).hasPrefix(id), "the take is the newest message")
            }
        }
        for (label, values) in starts.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted()
            print(String(format: "capture: hark record %@: start +%.0f ms (median of %d; goal: within 50 ms of the command's start); each: %@",
                         label, sorted[sorted.count / 2] * 1000, values.count,
                         values.map { String(format: "%+.0f", $0 * 1000) }.joined(separator: " ")))
        }
    }

    private static func isID(_ line: String) -> Bool {
        line.count == 36 && UUID(uuidString: line) != nil
    }
}
