import Foundation
import HarkTestSupport
import XCTest

/// A change made to `messages/` behind Hark's back is still found, but after
/// what the user is waiting for: `hark list` prints its page first and then
/// says what the check found; `hark record` checks once it records.
final class FolderCheckCommandTests: XCTestCase {
    private var home: ScratchFolder!
    private var environment: [String: String] { ["XDG_DATA_HOME": home.url.path] }
    private var messages: URL { home.url.appendingPathComponent("hark/messages") }

    override func setUpWithError() throws { home = try ScratchFolder() }
    override func tearDownWithError() throws { home = nil }

    private struct Listed: Decodable { let id: String; let title: String }

    /// Runs hark through the shell, stdout and stderr apart.
    private func hark(_ arguments: String) throws -> (stdout: String, stderr: String) {
        let errors = home.path("stderr.txt")
        let (status, output) = try ChildProcess.run("/bin/sh", ["-c", "\"$HARK\" \(arguments) 2>\"$ERRORS\""],
                                                    environment: environment.merging(["HARK": harkExecutable, "ERRORS": errors]) { $1 })
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        XCTAssertEqual(status, 0, output + stderr)
        return (output, stderr)
    }

    private func tone(_ name: String) throws -> String {
        let path = home.path(name)
        try gstLaunch("audiotestsrc num-buffers=50 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    private func plant(_ name: String) throws {
        let (status, output) = try ChildProcess.run("/bin/cp", [try tone("source-\(name)"), messages.appendingPathComponent(name).path])
        XCTAssertEqual(status, 0, output)
    }

    private func listed(_ json: String) throws -> [Listed] {
        try JSONDecoder().decode([Listed].self, from: Data(json.utf8))
    }

    func testThePageComesFirstAndThenWhatTheCheckFound() throws {
        let note = try tone("Note.ogg")
        _ = try hark("import '\(note)'")
        try plant("planted.ogg")

        let first = try hark("list --json")
        XCTAssertEqual(try listed(first.stdout).map(\.title), ["Note"], "the page is not held back by the check")
        XCTAssertEqual(first.stderr, "hark: An audio file found in the messages folder was added.\n")

        let second = try hark("list --json")
        XCTAssertEqual(Set(try listed(second.stdout).map(\.title)), ["Note", "Recovered recording"])
        XCTAssertEqual(second.stderr, "", "found once")
    }

    func testARecordingChecksTheFolderOnceItRecords() throws {
        _ = try hark("list")
        try plant("planted.ogg")
        let recorded = try hark("record --raw --duration 0.5 --title Take --source 'audiotestsrc is-live=true wave=sine volume=0.3'")
        XCTAssertEqual(recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines).count, 36, "its id: \(recorded.stdout)")
        XCTAssertTrue(recorded.stderr.contains("hark: An audio file found in the messages folder was added.\n"), recorded.stderr)
        XCTAssertEqual(Set(try listed(try hark("list --json").stdout).map(\.title)), ["Take", "Recovered recording"])
    }

    /// The JSON is written as the rows are read; it is still one array.
    func testTheStreamedListIsOneArrayNewestFirst() throws {
        for name in ["One", "Two", "Three"] {
            _ = try hark("import '\(try tone("\(name).ogg"))'")  // dated by its file: made one after another
        }
        let all = try hark("list --json").stdout
        XCTAssertEqual(all.split(separator: "\n").count, 1, all)
        XCTAssertEqual(try listed(all).map(\.title), ["Three", "Two", "One"])
        XCTAssertEqual(try listed(try hark("list --json --limit 2").stdout).map(\.title), ["Three", "Two"])
        XCTAssertEqual(try hark("list --limit 1").stdout.split(separator: "\n").count, 1)
    }

    /// Written by hand, the JSON is what JSONSerialization writes, byte for
    /// byte: escapes, numbers, keys in order, `voice_processed` when known.
    func testTheStreamedJSONIsWhatJSONSerializationWrites() throws {
        _ = try hark("import '\(try tone("Note.ogg"))'")
        _ = try hark("record --raw --duration 0.3 --source 'audiotestsrc is-live=true wave=sine volume=0.3'")
        let id = try XCTUnwrap(try listed(try hark("list --json --limit 1").stdout).first?.id)
        let title = "a \"quoted\" path/with\\back,\ttab, bell \u{7}\u{1b}, line\nbreak, café 😀"
        let (status, output) = try ChildProcess.run(harkExecutable, ["rename", id, title], environment: environment)
        XCTAssertEqual(status, 0, output)

        let text = try hark("list --json").stdout.trimmingCharacters(in: .newlines)
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        XCTAssertEqual(objects.count, 2)
        XCTAssertEqual(objects.first?["title"] as? String, title)
        XCTAssertEqual(objects.first?["voice_processed"] as? Bool, false)
        XCTAssertNil(objects.last?["voice_processed"], "unknown for an import")
        let whole = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
        XCTAssertEqual(text, String(decoding: whole, as: UTF8.self))
    }
}
