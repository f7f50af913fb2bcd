import Foundation
import HarkTestSupport
import XCTest

/// The store through the command line, in a private XDG_DATA_HOME.
final class StoreCommandTests: XCTestCase {
    private var home: ScratchFolder!
    private var environment: [String: String] { ["XDG_DATA_HOME": home.url.path] }
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    override func setUpWithError() throws { home = try ScratchFolder() }
    override func tearDownWithError() throws { home = nil }

    private struct Listed: Decodable, Equatable {
        let id: String
        let title: String
        let created_at: String
        let duration_s: Double
        let state: String
    }

    private func hark(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        try ChildProcess.run(harkExecutable, arguments, environment: environment)
    }

    private func list() throws -> [Listed] {
        let (status, output) = try hark(["list", "--json"])
        XCTAssertEqual(status, 0, output)
        let json = output.split(separator: "\n").filter { $0.hasPrefix("[") }.last.map(String.init) ?? "[]"
        return try JSONDecoder().decode([Listed].self, from: Data(json.utf8))
    }

    private func integrity() throws -> String {
        let (_, output) = try ChildProcess.run("/usr/bin/python3", ["-c", """
            import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])
            """, home.url.appendingPathComponent("hark/hark.sqlite3").path])
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private struct Decoded: Decodable { let duration_s: Double }

    /// Each export format decodes, by GStreamer's own decodebin (through
    /// `hark levels`) and by its type sniffing, to the message's duration;
    /// Ogg Opus is the stored file unchanged; every file is readable by others.
    func testExportFormatsDecodeToTheMessagesDurationAndAreReadable() throws {
        let (status, output) = try hark(["record", "--duration", "2.5", "--source", tone])
        XCTAssertEqual(status, 0, output)
        let id = output.trimmingCharacters(in: .whitespacesAndNewlines)
        let stored = home.path("hark/messages/\(id).ogg")
        for (file, format, mime) in [("a.ogg", nil, "audio/ogg"), ("b.mp3", nil, "audio/mpeg"), ("c.wav", nil, "audio/x-wav"),
                                     ("d.audio", "mp3", "audio/mpeg"), ("e.ogg", "wav", "audio/x-wav")] {
            let path = home.path(file)
            let (exported, reason) = try hark(["export", id, path] + (format.map { ["--format", $0] } ?? []))
            XCTAssertEqual(exported, 0, "\(file): \(reason)")
            let (_, levels) = try hark(["levels", path, "--json"])
            let decoded = try JSONDecoder().decode(Decoded.self, from: Data(levels.utf8))
            XCTAssertEqual(decoded.duration_s, 2.5, accuracy: 0.05, "\(file) decodes to the message's duration")
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o044, 0o044, "\(file) is readable by whoever it is sent to: \(String(mode, radix: 8))")
            let (_, type) = try ChildProcess.run("/usr/bin/gst-typefind-1.0", [path])
            XCTAssertTrue(type.contains(mime), "\(file) is \(mime): \(type)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: home.path("a.ogg"))),
                       try Data(contentsOf: URL(fileURLWithPath: stored)), "Ogg Opus is the original, unchanged")
        let (bad, reason) = try hark(["export", id, home.path("f.mp3"), "--format", "flac"])
        XCTAssertEqual(bad, 2, reason)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path("f.mp3")))
    }

    func testRecordRenameDeleteUndeleteExport() throws {
        let (status, output) = try hark(["record", "--duration", "1", "--source", tone, "--title", "Groceries"])
        XCTAssertEqual(status, 0, output)
        let id = output.trimmingCharacters(in: .whitespacesAndNewlines)
        var listed = try list()
        XCTAssertEqual(listed.map(\.id), [id])
        XCTAssertEqual(listed.first?.title, "Groceries")
        XCTAssertEqual(listed.first?.state, "ready")
        XCTAssertEqual(listed.first?.duration_s ?? 0, 1, accuracy: 0.06)
        XCTAssertNotNil(ISO8601DateFormatter().date(from: listed.first?.created_at ?? ""))

        XCTAssertEqual(try hark(["rename", id, "Milk, eggs"]).status, 0)
        XCTAssertEqual(try list().first?.title, "Milk, eggs")
        XCTAssertEqual(try hark(["delete", id]).status, 0)
        XCTAssertEqual(try list(), [])
        XCTAssertEqual(try hark(["undelete", id]).status, 0)
        listed = try list()
        XCTAssertEqual(listed.map(\.id), [id])

        let exported = home.path("out.ogg")
        XCTAssertEqual(try hark(["export", id, exported]).status, 0)
        let again = try hark(["export", id, exported])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.output.contains("already exists"), again.output)
        XCTAssertEqual(try hark(["export", id, exported, "--force"]).status, 0)
        XCTAssertEqual(try hark(["rename", "no-such-id", "x"]).status, 1)
        XCTAssertEqual(try integrity(), "ok")
    }

    func testAKilledRecordingIsReadyOnTheNextListWithItsLevels() throws {
        let recorder = try ChildProcess(harkExecutable, ["record", "--source", tone], environment: environment)
        usleep(4_000_000)
        kill(recorder.process.processIdentifier, SIGKILL)
        recorder.waitForExit(seconds: 10)
        let listed = try list()
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed.first?.state, "ready")
        XCTAssertGreaterThanOrEqual(listed.first?.duration_s ?? 0, 3)
        XCTAssertEqual(try integrity(), "ok")
        let levels = try ChildProcess.run("/usr/bin/python3", ["-c", """
            import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT length(data) FROM levels').fetchone()[0])
            """, home.url.appendingPathComponent("hark/hark.sqlite3").path])
        XCTAssertGreaterThanOrEqual(Int(levels.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 2 * 60)
    }

    func testTwentyKillsAtRandomMomentsLoseNothingReportedDone() throws {
        let source = home.path("source.ogg")
        _ = try ChildProcess.run(harkExecutable, ["record", "--output", source, "--duration", "2", "--source", tone])
        var done: Set<String> = []      // reported done: must survive
        var deleted: Set<String> = []   // deletion reported done: must stay deleted
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let choice = done.subtracting(deleted).isEmpty ? Int.random(in: 0...1, using: &generator)
                                                           : Int.random(in: 0...2, using: &generator)
            let arguments: [String]
            switch choice {
            case 0: arguments = ["record", "--source", tone, "--duration", "1"]
            case 1: arguments = ["import", source]
            default: arguments = ["delete", done.subtracting(deleted).randomElement(using: &generator)!]
            }
            let child = try ChildProcess(harkExecutable, arguments, environment: environment)
            usleep(UInt32.random(in: 0...1_500_000, using: &generator))
            if child.isRunning { kill(child.process.processIdentifier, SIGKILL) }
            let status = child.waitForExit(seconds: 10)
            guard status == 0 else { continue }  // killed (or failed): promised nothing
            switch choice {
            case 2: deleted.insert(arguments[1])
            default:
                // record prints the id; import prints "id  title".
                let line = child.output.split(separator: "\n").last { !$0.hasPrefix("hark:") } ?? ""
                let id = String(line.split(separator: " ").first ?? "")
                XCTAssertFalse(id.isEmpty, "round \(round): \(child.output)")
                done.insert(id)
            }
        }
        let listed = Set(try list().map(\.id))
        XCTAssertTrue(done.subtracting(deleted).isSubset(of: listed), "lost: \(done.subtracting(deleted).subtracting(listed))")
        XCTAssertTrue(deleted.isDisjoint(with: listed), "a reported deletion came undone")
        XCTAssertTrue(try list().allSatisfy { $0.state == "ready" || $0.state == "missing" })
        XCTAssertEqual(try integrity(), "ok")
    }

    func testBadImportsFailWithOneLineAndChangeNothing() throws {
        let good = home.path("good.ogg")
        _ = try ChildProcess.run(harkExecutable, ["record", "--output", good, "--duration", "1", "--source", tone])
        XCTAssertEqual(try hark(["import", good]).status, 0)
        let before = try list()
        let empty = home.path("empty.ogg")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        for bad in [empty, "/etc/passwd", home.url.path, home.path("missing.ogg")] {
            let (status, output) = try hark(["import", bad])
            XCTAssertEqual(status, 1, bad)
            XCTAssertEqual(output.split(separator: "\n").count, 1, output)
            XCTAssertTrue(output.contains(bad), output)
        }
        XCTAssertEqual(try list(), before)
        XCTAssertEqual(try integrity(), "ok")
    }
}
