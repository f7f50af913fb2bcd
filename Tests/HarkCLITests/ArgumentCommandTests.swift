import CSQLite
import Foundation
import HarkTestSupport
import XCTest

/// Small things testers met: how names, options and numbers are read, what a
/// file that is no file is called, and a store another process keeps locked.
final class ArgumentCommandTests: XCTestCase {
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    private struct Listed: Decodable { let id: String; let title: String }

    private func listed(_ environment: [String: String]) throws -> [Listed] {
        let (status, output) = try ChildProcess.run(harkExecutable, ["list", "--json"], environment: environment)
        XCTAssertEqual(status, 0, output)
        let json = output.split(separator: "\n").filter { $0.hasPrefix("[") }.last.map(String.init) ?? "[]"
        return try JSONDecoder().decode([Listed].self, from: Data(json.utf8))
    }

    /// An imported file's title is its name less an audio extension only: a
    /// dot inside a name ("v1.2", "Dr.") is not where an extension starts.
    func testImportedTitlesLoseOnlyAnAudioExtension() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let names = ["Notes v1.2 final", "Dr. Smith appointment", "talk.ogg"]
        for name in names {
            let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone,
                                                                         "--output", home.path(name)])
            XCTAssertEqual(status, 0, output)
            let (imported, printed) = try ChildProcess.run(harkExecutable, ["import", home.path(name)], environment: environment)
            XCTAssertEqual(imported, 0, printed)
        }
        XCTAssertEqual(Set(try listed(environment).map(\.title)), ["Notes v1.2 final", "Dr. Smith appointment", "talk"])
    }

    /// `record --output` writes Ogg Opus only, so a name promising another
    /// format is refused and nothing is written; .ogg and .opus are fine.
    func testRecordToAFileNamedForAnotherFormatIsRefused() throws {
        let scratch = try ScratchFolder()
        for name in ["take.mp3", "take.WAV"] {
            let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone,
                                                                         "--output", scratch.path(name)])
            XCTAssertEqual(status, 2, "\(name): \(output)")
            XCTAssertTrue(output.contains("Ogg Opus"), output)
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path(name)), "nothing written to \(name)")
        }
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone,
                                                                     "--output", scratch.path("take.opus")])
        XCTAssertEqual(status, 0, output)
    }

    /// An option left without its value does not swallow the next option:
    /// `--title --raw` is a usage error, and records nothing; `--title=--raw`
    /// is the way to such a title.
    func testAnOptionIsNotTakenAsTheValueOfTheOneBefore() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--title", "--raw", "--duration", "0.3",
                                                                     "--source", tone], environment: environment)
        XCTAssertEqual(status, 2, output)
        XCTAssertTrue(output.contains("--title needs a value"), output)
        XCTAssertEqual(try listed(environment).count, 0, "nothing recorded")
        let (titled, printed) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--title=--raw", "--duration", "0.3",
                                                                      "--source", tone], environment: environment)
        XCTAssertEqual(titled, 0, printed)
        XCTAssertEqual(try listed(environment).map(\.title), ["--raw"])
    }

    /// Durations and other numbers are decimal: hexadecimal floats, which
    /// Swift's Double(_:) reads, are refused.
    func testHexadecimalNumbersAreRefused() throws {
        let scratch = try ScratchFolder()
        for duration in ["0x1p1", "0X2", "0x.8p1"] {
            let path = scratch.path("hex.ogg")
            let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", duration,
                                                                         "--source", tone, "--output", path])
            XCTAssertEqual(status, 2, "\(duration): \(output)")
            XCTAssertTrue(output.contains("--duration takes a number"), output)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "3e-1",
                                                                     "--source", tone, "--output", scratch.path("decimal.ogg")])
        XCTAssertEqual(status, 0, "an exponent is still decimal: \(output)")
    }

    /// A named pipe or a device is named for what it is, not called an
    /// empty file (and never read: /dev/zero would not end).
    func testAPipeOrADeviceIsCalledWhatItIs() throws {
        let scratch = try ScratchFolder()
        let fifo = scratch.path("pipe.ogg")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (path, kind) in [(fifo, "named pipe"), ("/dev/zero", "character device")] {
            for command in [["levels", "--json", path], ["import", path]] {
                let (status, output) = try ChildProcess.run(harkExecutable, command,
                                                            environment: ["XDG_DATA_HOME": scratch.path("data")], seconds: 20)
                XCTAssertEqual(status, 1, "\(command): \(output)")
                XCTAssertTrue(output.contains(kind) && !output.contains("empty"), "\(command): \(output)")
            }
        }
    }

    /// A rename while another process holds the store's write lock fails
    /// saying the store is busy, and changes nothing; once the lock is gone
    /// it works.
    func testRenameWhileAnotherProcessWritesSaysTheStoreIsBusy() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let (recorded, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone,
                                                                       "--title", "Before"], environment: environment)
        XCTAssertEqual(recorded, 0, output)
        let id = output.trimmingCharacters(in: .whitespacesAndNewlines)
        var connection: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(home.path("data/hark/hark.sqlite3"), &connection, SQLITE_OPEN_READWRITE, nil), SQLITE_OK)
        defer { sqlite3_close(connection) }
        XCTAssertEqual(sqlite3_exec(connection, "BEGIN EXCLUSIVE", nil, nil, nil), SQLITE_OK)
        let (status, refused) = try ChildProcess.run(harkExecutable, ["rename", id, "After"], environment: environment)
        XCTAssertEqual(status, 1, refused)
        XCTAssertTrue(refused.contains("The message store is busy: another Hark is writing to it"), refused)
        XCTAssertEqual(refused.split(separator: "\n").count, 1, "one sentence: \(refused)")
        XCTAssertEqual(try listed(environment).map(\.title), ["Before"], "a read works meanwhile, and nothing changed")
        XCTAssertEqual(sqlite3_exec(connection, "ROLLBACK", nil, nil, nil), SQLITE_OK)
        let (renamed, printed) = try ChildProcess.run(harkExecutable, ["rename", id, "After"], environment: environment)
        XCTAssertEqual(renamed, 0, printed)
        XCTAssertEqual(try listed(environment).map(\.title), ["After"])
    }
}
