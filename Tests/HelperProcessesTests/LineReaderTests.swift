import Foundation
import GLibSupport
@testable import HelperProcesses
import XCTest

/// The reader over a real program's output: lines split wherever the chunks
/// fall, a last line without a newline kept, and a program that leads its own
/// process group ended with what it started.
final class LineReaderTests: XCTestCase {
    func testLinesAcrossChunksAndALastLineWithoutNewline() throws {
        try MainActor.assumeIsolated {
            // 3 lines, the second longer than one read (64 KB), the last unterminated.
            let process = try Subprocess(arguments: ["/usr/bin/python3", "-c",
                                                     "import sys; sys.stdout.write('one\\r\\n' + 'y' * 100000 + '\\nlast')"],
                                         pipes: [.output])
            var lines: [String] = []
            var end: LineReader.End?
            let reader = LineReader(process.output!, owner: process, longestLine: 1_000_000) { lines.append($0) }
                onEnd: { end = $0 }
            XCTAssertTrue(MainLoop.iterate(until: { end != nil }, timeout: 30))
            withExtendedLifetime(reader) {}
            XCTAssertEqual(end, .closed)
            XCTAssertEqual(lines.count, 3)
            XCTAssertEqual(lines.first, "one")
            XCTAssertEqual(lines.dropFirst().first?.count, 100_000)
            XCTAssertEqual(lines.last, "last")
            var exit: Subprocess.Exit?
            process.waitForExit { exit = $0 }
            XCTAssertTrue(MainLoop.iterate(until: { exit != nil }, timeout: 30))
            XCTAssertEqual(exit, .exited(status: 0))
        }
    }

    /// Whether `condition` came true within 30 s (checked every 20 ms: what
    /// it waits for happens in other processes, not on GLib's loop).
    private static func poll(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    func testTerminatingAGroupLeaderEndsWhatItStarted() throws {
        try MainActor.assumeIsolated {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let pidFile = folder.appendingPathComponent("child.pid").path
            let process = try Subprocess(arguments: ["/bin/sh", "-c", "sleep 600 & echo $! > '\(pidFile)'; wait"],
                                         pipes: [], ownProcessGroup: true)
            XCTAssertTrue(Self.poll { ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let child = pid_t((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))!
            XCTAssertEqual(kill(child, 0), 0, "the grandchild runs")
            var exit: Subprocess.Exit?
            process.waitForExit { exit = $0 }
            process.terminate()
            XCTAssertTrue(MainLoop.iterate(until: { exit != nil }, timeout: 30))
            XCTAssertTrue(Self.poll {
                // Gone, or a zombie waiting for init to reap it.
                let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?
                    .split(separator: ")").last?.split(separator: " ").first
                return state == nil || state == "Z"
            }, "the sleep its shell started ended with it")
        }
    }
}
