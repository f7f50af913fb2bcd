import Foundation
import HarkTestSupport
import XCTest

/// What testers broke on purpose: full disks, signals, races for a file name,
/// special files, hostile names and titles.
final class HardeningCommandTests: XCTestCase {
    private let noise = "audiotestsrc is-live=true wave=white-noise"
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    /// A recording into the store on a disk that fills up ends by itself (it
    /// used to wait forever for a main-actor task no loop ran), keeps what
    /// was written, and the store still lists it: reading needs no space.
    func testRecordingIntoTheStoreOnAFullDiskEndsAndKeepsWhatWasWritten() throws {
        let disk = try TinyDisk(skippingUnlessMountable: 2048, leaveFreeKilobytes: 1024)
        let environment = ["XDG_DATA_HOME": disk.folder.url.path]
        XCTAssertEqual(try ChildProcess.run(harkExecutable, ["list"], environment: environment).status, 0, "the store opens")
        disk.fill(leavingFreeKilobytes: 120)
        let recorder = try ChildProcess(harkExecutable, ["record", "--raw", "--duration", "60", "--source", noise],
                                        environment: environment)
        defer { if recorder.isRunning { kill(recorder.process.processIdentifier, SIGKILL) } }
        XCTAssertEqual(recorder.waitForExit(seconds: 50), 1, "ends with a failure once the disk is full: \(recorder.output)")
        XCTAssertTrue(recorder.output.contains("disk is full"), recorder.output)
        let id = try XCTUnwrap(recorder.output.split(separator: "\n").first { $0.count == 36 }.map(String.init),
                               "the id of what was kept is printed: \(recorder.output)")
        let (status, listed) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(status, 0, "list works on a full disk: \(listed)")
        XCTAssertTrue(listed.contains(id), listed)
    }

    /// The same with --output: the other loop a recording runs in.
    func testRecordingToAFileOnAFullDiskEndsAndKeepsWhatWasWritten() throws {
        let disk = try TinyDisk(skippingUnlessMountable: 2048, leaveFreeKilobytes: 120)
        let path = disk.path("full.ogg")
        let recorder = try ChildProcess(harkExecutable, ["record", "--raw", "--duration", "60", "--source", noise, "--output", path])
        defer { if recorder.isRunning { kill(recorder.process.processIdentifier, SIGKILL) } }
        XCTAssertEqual(recorder.waitForExit(seconds: 50), 1, recorder.output)
        XCTAssertTrue(recorder.output.contains("disk is full"), recorder.output)
        let (status, levels) = try ChildProcess.run(harkExecutable, ["levels", path, "--json"])
        XCTAssertEqual(status, 0, "what was written plays: \(levels)")
    }

    /// `hark play` ends cleanly on SIGTERM, as on Ctrl+C.
    func testSIGTERMEndsPlayback() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("long.ogg")
        let (recorded, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "3", "--output", path,
                                                                       "--source", tone])
        XCTAssertEqual(recorded, 0, output)
        let player = try ChildProcess(harkExecutable, ["play", path, "--rate", "0.5"],
                                      environment: ["HARK_AUDIO_SINK": "fakesink sync=true"])
        defer { if player.isRunning { kill(player.process.processIdentifier, SIGKILL) } }
        usleep(1_000_000)
        player.process.terminate()
        XCTAssertEqual(player.waitForExit(seconds: 20), 0, player.output)
        XCTAssertEqual(player.process.terminationReason, .exit, "ended by itself, not killed by the signal")
    }

    /// SIGTERM ends a recording into the store cleanly, as Ctrl+C does.
    func testSIGTERMEndsARecordingIntoTheStoreAndKeepsIt() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.url.path]
        let recorder = try ChildProcess(harkExecutable, ["record", "--raw", "--source", tone], environment: environment)
        defer { if recorder.isRunning { kill(recorder.process.processIdentifier, SIGKILL) } }
        usleep(1_500_000)
        recorder.process.terminate()
        XCTAssertEqual(recorder.waitForExit(seconds: 20), 0, recorder.output)
        let (_, listed) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertTrue(listed.contains("ready"), listed)
    }

    /// A second signal while the recording is stopping ends it at once; what
    /// was written stays, playable.
    func testASecondSignalEndsAStoppingRecordingAndKeepsTheFile() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("twice.ogg")
        let recorder = try ChildProcess(harkExecutable, ["record", "--raw", "--output", path, "--source", tone])
        defer { if recorder.isRunning { kill(recorder.process.processIdentifier, SIGKILL) } }
        usleep(1_500_000)
        recorder.process.terminate()
        recorder.process.interrupt()
        XCTAssertNotNil(recorder.waitForExit(seconds: 20), recorder.output)
        let (status, levels) = try ChildProcess.run(harkExecutable, ["levels", path, "--json"])
        XCTAssertEqual(status, 0, "what was written plays: \(levels)")
    }

    /// Two recorders racing for one path: a good one and one that fails (no
    /// sound server). Whichever creates the file owns it; the failing one
    /// never deletes a file it did not create, so a success always leaves
    /// its recording, one stream, at the path.
    func testRacingRecordersNeverLoseTheGoodRecording() throws {
        let scratch = try ScratchFolder()
        for round in 1...4 {
            let path = scratch.path("race-\(round).ogg")
            let good = try ChildProcess(harkExecutable, ["record", "--raw", "--output", path, "--duration", "2", "--source", tone])
            let failing = try ChildProcess(harkExecutable, ["record", "--raw", "--output", path],
                                           environment: ["PULSE_SERVER": "unix:/nonexistent"])
            let goodStatus = good.waitForExit(seconds: 30)
            XCTAssertEqual(failing.waitForExit(seconds: 30), 1, failing.output)
            guard goodStatus == 0 else {
                XCTAssertTrue(good.output.contains("already exists"), "lost the race, said so: \(good.output)")
                continue
            }
            let (status, levels) = try ChildProcess.run(harkExecutable, ["levels", path, "--json"])
            XCTAssertEqual(status, 0, "round \(round): the good recording is at the path: \(levels) \(failing.output)")
            let pages = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(Set(oggStreamSerials(pages)).count, 1, "round \(round): one Ogg stream")
        }
    }

    /// A recording that fails after it began deletes its file only while the
    /// file is still its own: one put at the path since stays.
    func testAFailedRecordingDeletesOnlyTheFileItCreated() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("taken.ogg")
        let silent = try ChildProcess(harkExecutable, ["record", "--raw", "--output", path,
                                                       "--source", "audiotestsrc is-live=true ! valve drop=true"])
        defer { if silent.isRunning { kill(silent.process.processIdentifier, SIGKILL) } }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: path) { usleep(20_000) }
        let replacement = scratch.path("replacement")
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: replacement))
        XCTAssertEqual(rename(replacement, path), 0)
        XCTAssertEqual(silent.waitForExit(seconds: 20), 1, silent.output)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("someone else's".utf8),
                       "the file put there since is untouched: \(silent.output)")
    }

    /// A message recorded into a private store, and that store's environment.
    private func recordedMessage(in home: ScratchFolder) throws -> (id: String, environment: [String: String]) {
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "1", "--source", tone],
                                                    environment: environment)
        XCTAssertEqual(status, 0, output)
        return (output.trimmingCharacters(in: .whitespacesAndNewlines), environment)
    }

    private func fileType(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    /// `export --force` replaces a regular file only, by a rename (a new
    /// inode); a pipe, a symbolic link or a folder is refused, saying why,
    /// and left as it was. (Never tried on the real /dev/null: a fifo of our
    /// own stands for any special file.)
    func testExportReplacesOnlyRegularFiles() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let fifo = home.path("fifo.ogg")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let aimed = home.path("aimed-at.ogg")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: aimed))
        let link = home.path("link.ogg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: aimed)
        let folder = home.path("folder.ogg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (target, type, reason) in [(fifo, S_IFIFO, "special file"), (link, S_IFLNK, "symbolic link"), (folder, S_IFDIR, "folder")] {
            let (status, output) = try ChildProcess.run(harkExecutable, ["export", id, target, "--force"],
                                                        environment: environment, seconds: 20)
            XCTAssertEqual(status, 1, "\(target): \(output)")
            XCTAssertTrue(output.contains(reason), "\(target): \(output)")
            XCTAssertEqual(fileType(target), type, "\(target) is left as it was")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: aimed), Data("keep me".utf8))
        let regular = home.path("regular.ogg")
        try Data("old".utf8).write(to: URL(fileURLWithPath: regular))
        var before = stat()
        lstat(regular, &before)
        let (status, output) = try ChildProcess.run(harkExecutable, ["export", id, regular, "--force"], environment: environment)
        XCTAssertEqual(status, 0, output)
        var after = stat()
        lstat(regular, &after)
        XCTAssertNotEqual(before.st_ino, after.st_ino, "replaced by a rename, not written over in place")
        XCTAssertEqual(FileManager.default.contents(atPath: regular),
                       FileManager.default.contents(atPath: home.path("data/hark/messages/\(id).ogg")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.url.path).filter { $0.hasPrefix(".") }, [],
                       "no temporary file is left behind")
    }

    /// `waveform --png` refuses an existing file unless --force, and even then
    /// writes only a regular file.
    func testWaveformPNGNeedsForceToReplaceAndNeverWritesASpecialFile() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let png = home.path("wave.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: png))
        var (status, output) = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", png], environment: environment)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("already exists"), output)
        XCTAssertEqual(FileManager.default.contents(atPath: png), Data("old".utf8))
        (status, output) = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", png, "--force"], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(FileManager.default.contents(atPath: png)?.prefix(4), Data([0x89, 0x50, 0x4E, 0x47]), "a PNG now")
        let fifo = home.path("fifo.png")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        (status, output) = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", fifo, "--force"],
                                                environment: environment, seconds: 20)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("special file"), output)
        XCTAssertEqual(fileType(fifo), S_IFIFO)
    }

    /// `--` ends the options: a relative file name starting with `-` can be
    /// given after it.
    func testDoubleDashLetsAFileNameStartWithADash() throws {
        let name = "-hark-\(UUID().uuidString).ogg"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path  // the children's folder
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (recorded, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.5", "--output", path,
                                                                       "--source", tone])
        XCTAssertEqual(recorded, 0, output)
        let (status, levels) = try ChildProcess.run(harkExecutable, ["levels", "--json", "--", name])
        XCTAssertEqual(status, 0, levels)
        XCTAssertTrue(levels.contains("\"duration_s\""), levels)
    }

    /// What `hark list` prints for a store holding one message titled `title`.
    private func listing(aMessageTitled title: String) throws -> String {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.url.path]
        let (recorded, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.5", "--source", tone,
                                                                       "--title", title], environment: environment)
        XCTAssertEqual(recorded, 0, output)
        let (status, listed) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(status, 0, listed)
        return listed
    }

    /// A title holding terminal escape sequences is listed with its control
    /// characters shown, not sent to the terminal.
    func testListShowsControlCharactersInTitlesEscaped() throws {
        let listed = try listing(aMessageTitled: "\u{1B}]0;owned\u{07}\u{1B}[31mred\u{9B}2J")
        XCTAssertFalse(listed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, listed)
        XCTAssertTrue(listed.contains("^[]0;owned^G^[[31mred\\u{9B}2J"), listed)
    }

    /// A title with a right-to-left override cannot reverse the rest of its
    /// line in a listing; right-to-left text itself is kept as it is.
    func testListShowsBidirectionalOverridesEscaped() throws {
        let listed = try listing(aMessageTitled: "invoice\u{202E}fdp.exe\u{2066} שלום")
        XCTAssertFalse(listed.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) },
                       listed)
        XCTAssertTrue(listed.contains("invoice\\u{202E}fdp.exe\\u{2066} שלום"), listed)
    }

    /// Exporting into a folder that does not exist names that folder.
    func testExportIntoAMissingFolderNamesIt() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let missing = home.path("no-such-folder")
        let (status, output) = try ChildProcess.run(harkExecutable, ["export", id, missing + "/out.ogg"], environment: environment)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("the folder \(missing) does not exist"), output)
    }

    /// With the messages folder read-only, `record` says so and leaves no
    /// phantom message behind.
    func testRecordIntoAnUnwritableMessagesFolderSaysSoAndLeavesNoMessage() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.url.path]
        XCTAssertEqual(try ChildProcess.run(harkExecutable, ["list"], environment: environment).status, 0)
        let messages = home.path("hark/messages")
        guard try ChildProcess.run("/bin/mount", ["--bind", messages, messages]).status == 0 else {
            throw XCTSkip("cannot bind-mount here")
        }
        defer { _ = try? ChildProcess.run("/bin/umount", [messages]) }
        XCTAssertEqual(try ChildProcess.run("/bin/mount", ["-o", "remount,bind,ro", messages]).status, 0)
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.5", "--source", tone],
                                                    environment: environment)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("the folder \(messages) is not writable"), output)
        let (_, listed) = try ChildProcess.run(harkExecutable, ["list", "--json"], environment: environment)
        XCTAssertTrue(listed.contains("[]"), "no phantom message: \(listed)")
    }

    /// A file whose name is not UTF-8 (bytes, as Linux allows) is found, read
    /// and imported; one that does not exist is a clear usage error. The
    /// names are made and passed by the shell: Foundation can hold neither.
    func testAFileNameThatIsNotUTF8IsFound() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let utf8 = home.path("voice.ogg")
        let (recorded, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.5", "--output", utf8,
                                                                       "--source", tone])
        XCTAssertEqual(recorded, 0, output)
        let shell = """
            name="$(printf '%s/voice-\\377.ogg' "$1")"
            mv "$1/voice.ogg" "$name" || exit 9
            "$0" levels --json "$name" || exit 3
            "$0" import "$name" || exit 4
            "$0" levels --json "$(printf '%s/missing-\\377.ogg' "$1")"
            echo "missing: $?"
            mv "$name" "$1/voice.ogg"  # a name the scratch folder's clean-up can remove
            """
        let (status, printed) = try ChildProcess.run("/bin/sh", ["-c", shell, harkExecutable, home.url.path], environment: environment)
        XCTAssertEqual(status, 0, printed)
        XCTAssertTrue(printed.contains("\"duration_s\""), printed)
        XCTAssertTrue(printed.contains("voice-\u{FFFD}"), "imported, titled after the name as best it reads: \(printed)")
        XCTAssertTrue(printed.contains("not valid UTF-8") && printed.contains("missing: 2"), printed)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
                        .filter { $0.hasPrefix("hark-arguments-") }, [], "the stand-ins are removed at exit")
    }
}

extension TinyDisk {
    /// A nearly full tmpfs, or a skipped test where none can be mounted.
    convenience init(skippingUnlessMountable kilobytes: Int, leaveFreeKilobytes: Int) throws {
        do { try self.init(kilobytes: kilobytes, leaveFreeKilobytes: leaveFreeKilobytes) } catch let error as TinyDisk.Unavailable {
            throw XCTSkip(error.description)
        }
    }
}

/// The serial number of each Ogg page in `data` (the stream it belongs to).
func oggStreamSerials(_ data: Data) -> [UInt32] {
    let bytes = [UInt8](data)
    var serials: [UInt32] = []
    var index = 0
    while index + 27 <= bytes.count {
        guard bytes[index..<index + 4].elementsEqual("OggS".utf8) else { index += 1; continue }
        serials.append((0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index + 14 + $1]) << (8 * $1) })
        let segments = Int(bytes[index + 26])
        guard index + 27 + segments <= bytes.count else { break }
        let body = bytes[(index + 27)..<(index + 27 + segments)].reduce(0) { $0 + Int($1) }
        index += 27 + segments + body
    }
    return serials
}
