import Foundation
import HarkTestSupport
import XCTest

/// File names that are not UTF-8 (Latin-1 "café", as an old file system or
/// archive leaves them), which the README promises work: read, imported,
/// exported to and replaced. Swift strings cannot hold such names, so the
/// test makes the files with the C API and passes the names through the
/// shell (`printf '\351'`).
final class NonUTF8NameTests: XCTestCase {
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    /// `folder/prefix` + the Latin-1 byte é (0xE9) + `suffix`, NUL-terminated.
    private func latin1(_ folder: String, _ prefix: String, _ suffix: String) -> [CChar] {
        Array((folder + "/" + prefix).utf8CString.dropLast()) + [CChar(bitPattern: 0xE9)] + Array(suffix.utf8CString)
    }

    private func write(_ data: Data, toRaw name: [CChar]) {
        let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0, String(cString: strerror(errno)))
        data.withUnsafeBytes { XCTAssertEqual(Glibc.write(descriptor, $0.baseAddress, $0.count), $0.count) }
        close(descriptor)
    }

    /// What the file of that name holds, or nil when there is none (read by
    /// giving it a UTF-8 name for a moment).
    private func contents(ofRaw name: [CChar], in folder: String) -> Data? {
        var status = stat()
        guard lstat(name, &status) == 0 else { return nil }
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG, "a regular file, not a link")
        let readable = folder + "/readable-\(UUID().uuidString)"
        XCTAssertEqual(rename(name, readable), 0)
        defer { XCTAssertEqual(rename(readable, name), 0) }
        return FileManager.default.contents(atPath: readable)
    }

    /// Runs `script` in sh with $0 the hark binary and $1… `arguments`.
    private func shell(_ script: String, _ arguments: [String], environment: [String: String]) throws -> (Int32?, String) {
        try ChildProcess.run("/bin/sh", ["-c", script, harkExecutable] + arguments, environment: environment)
    }

    /// The entries in `folder`, counted by readdir (Foundation cannot name
    /// some of them).
    private func entryCount(_ folder: String) -> Int {
        guard let directory = opendir(folder) else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }

    private func recording(in scratch: ScratchFolder) throws -> Data {
        let path = scratch.path("tone.ogg")
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone,
                                                                     "--output", path])
        XCTAssertEqual(status, 0, output)
        return try XCTUnwrap(FileManager.default.contents(atPath: path))
    }

    /// The same file twice in one import, and two files of the same name in
    /// different folders: each is imported (their stand-ins used to collide
    /// and the second was "not valid UTF-8 and names no file that exists").
    func testOneNonUTF8NameTwiceAndTwoOfTheSameNameAreImported() throws {
        let scratch = try ScratchFolder()
        let audio = try recording(in: scratch)
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: scratch.path(folder), withIntermediateDirectories: false)
        }
        let first = latin1(scratch.path("a"), "caf", ".ogg"), second = latin1(scratch.path("b"), "caf", ".ogg")
        write(audio, toRaw: first)
        write(audio, toRaw: second)
        defer { unlink(first); unlink(second) }
        let environment = ["XDG_DATA_HOME": scratch.path("data")]
        let (status, output) = try shell("""
            a="$(printf '%s/a/caf\\351.ogg' "$1")"; b="$(printf '%s/b/caf\\351.ogg' "$1")"
            "$0" import "$a" "$a" "$b"
            """, [scratch.url.path], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output.split(separator: "\n").filter { $0.hasSuffix("caf\u{FFFD}") }.count, 3, output)
        let (_, listed) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(listed.split(separator: "\n").count, 3, listed)
    }

    /// A message exported to a new name that is not UTF-8 is written under
    /// that very name (not a lossy one, nothing left beside it); exporting
    /// there again says it exists, naming the user's path; `--force`
    /// replaces it.
    func testExportToANewNonUTF8NameWritesThatName() throws {
        let scratch = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": scratch.path("data")]
        let (recorded, id) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone],
                                                  environment: environment)
        XCTAssertEqual(recorded, 0, id)
        let stored = try XCTUnwrap(FileManager.default.contents(
            atPath: scratch.path("data/hark/messages/\(id.trimmingCharacters(in: .whitespacesAndNewlines)).ogg")))
        let out = scratch.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let target = latin1(out, "r\u{E9}sum", ".ogg")
        defer { unlink(target) }
        func export(_ options: String...) throws -> (Int32?, String) {
            try shell(#"f="$1" id="$2"; shift 2; "$0" export "$id" "$(printf '%s/out/résum\351.ogg' "$f")" "$@""#,
                      [scratch.url.path, id.trimmingCharacters(in: .whitespacesAndNewlines)] + options, environment: environment)
        }
        var (status, output) = try export()
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(contents(ofRaw: target, in: out), stored, "the message, under the name asked for")
        XCTAssertEqual(entryCount(out), 1, "nothing else in the folder")
        (status, output) = try export()
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("\(out)/résum\u{FFFD}.ogg already exists"), "the user's path: \(output)")
        XCTAssertFalse(output.contains("hark-arguments"), "never the stand-in: \(output)")
        var before = stat()
        lstat(target, &before)
        (status, output) = try export("--force")
        XCTAssertEqual(status, 0, output)
        var after = stat()
        lstat(target, &after)
        XCTAssertNotEqual(before.st_ino, after.st_ino, "replaced by a rename")
        XCTAssertEqual(contents(ofRaw: target, in: out), stored)
    }

    /// With nowhere to make its stand-in (an unwritable TMPDIR), such a name
    /// is refused: never written under its lossy spelling instead.
    func testANameThatGetsNoStandInIsRefused() throws {
        let scratch = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": scratch.path("data")]
        let (recorded, printed) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone],
                                                       environment: environment)
        XCTAssertEqual(recorded, 0, printed)
        let id = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        let (status, output) = try shell(#"TMPDIR="$1/none" "$0" export "$2" "$(printf '%s/lost-\351.ogg' "$1")""#,
                                         [scratch.url.path, id], environment: environment)
        XCTAssertEqual(status, 2, output)
        XCTAssertTrue(output.contains("no stand-in"), output)
        XCTAssertEqual(entryCount(scratch.url.path), 1, "nothing written beside the store: \(output)")
    }

    /// `--force` over an existing regular file whose name is not UTF-8
    /// replaces it (it used to be refused as "a symbolic link": the
    /// stand-in was checked instead of the file).
    func testForceReplacesAnExistingNonUTF8File() throws {
        let scratch = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": scratch.path("data")]
        let (recorded, printed) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.3", "--source", tone],
                                                       environment: environment)
        XCTAssertEqual(recorded, 0, printed)
        let id = printed.trimmingCharacters(in: .whitespacesAndNewlines)
        let target = latin1(scratch.url.path, "old-", ".wav")
        write(Data("old".utf8), toRaw: target)
        defer { unlink(target) }
        let (status, output) = try shell(#""$0" export "$2" "$(printf '%s/old-\351.wav' "$1")" --force"#,
                                         [scratch.url.path, id], environment: environment)
        XCTAssertEqual(status, 0, output)
        let written = try XCTUnwrap(contents(ofRaw: target, in: scratch.url.path))
        XCTAssertEqual(written.prefix(4), Data("RIFF".utf8), "a WAV now, in place of the old file: \(output)")
    }
}
