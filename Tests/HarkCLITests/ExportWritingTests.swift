import Foundation
import HarkTestSupport
import XCTest

/// How an export's bytes reach the user's file: on a USB stick's exFAT, from
/// a message whose file is a symbolic link, under names as long as the file
/// system allows, and when the export is interrupted by a signal.
final class ExportWritingTests: XCTestCase {
    private let tone = "audiotestsrc is-live=true wave=sine volume=0.4"

    /// An exFAT stick (no hard links, no rename that refuses to replace):
    /// export, MP3 export and the waveform PNG are written; a second export
    /// to the same name is refused and changes nothing; `--force` replaces.
    func testExportToAnExFATStickWorksAndNeverClobbersUnasked() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let stick = try mountedStick()
        let original = try XCTUnwrap(FileManager.default.contents(atPath: home.path("data/hark/messages/\(id).ogg")))
        let ogg = stick.path("message.ogg")
        var (status, output) = try ChildProcess.run(harkExecutable, ["export", id, ogg], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(FileManager.default.contents(atPath: ogg), original)

        try Data("mine".utf8).write(to: URL(fileURLWithPath: ogg))
        (status, output) = try ChildProcess.run(harkExecutable, ["export", id, ogg], environment: environment)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("\(ogg) already exists"), output)
        XCTAssertEqual(FileManager.default.contents(atPath: ogg), Data("mine".utf8), "not clobbered without --force")
        (status, output) = try ChildProcess.run(harkExecutable, ["export", id, ogg, "--force"], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(FileManager.default.contents(atPath: ogg), original, "replaced with --force")

        let mp3 = stick.path("message.mp3")
        (status, output) = try ChildProcess.run(harkExecutable, ["export", id, mp3], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertGreaterThan(FileManager.default.contents(atPath: mp3)?.count ?? 0, 1000, "an MP3 was written")
        let png = stick.path("wave.png")
        (status, output) = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", png], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(FileManager.default.contents(atPath: png)?.prefix(4), Data([0x89, 0x50, 0x4E, 0x47]))
        (status, output) = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", png], environment: environment)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("already exists"), output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stick.folder).sorted(),
                       ["message.mp3", "message.ogg", "wave.png"], "nothing else is left on the stick")
    }

    /// A message whose file is a symbolic link (relative or absolute) to a
    /// private file elsewhere exports the audio's bytes into a regular file,
    /// and the private file keeps its mode.
    func testExportOfASymbolicallyLinkedMessageCopiesItsBytesAndLeavesTheTargetAlone() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let stored = home.path("data/hark/messages/\(id).ogg")
        let original = try XCTUnwrap(FileManager.default.contents(atPath: stored))
        try FileManager.default.createDirectory(atPath: home.path("elsewhere"), withIntermediateDirectories: false)
        let privateFile = home.path("elsewhere/private.ogg")
        XCTAssertEqual(rename(stored, privateFile), 0)
        try FileManager.default.createDirectory(atPath: home.path("out"), withIntermediateDirectories: false)
        for (kind, destination) in [("relative", "../../../elsewhere/private.ogg"), ("absolute", privateFile)] {
            XCTAssertEqual(chmod(privateFile, 0o600), 0)
            unlink(stored)
            try FileManager.default.createSymbolicLink(atPath: stored, withDestinationPath: destination)
            let exported = home.path("out/\(kind).ogg")
            let (status, output) = try ChildProcess.run(harkExecutable, ["export", id, exported], environment: environment)
            XCTAssertEqual(status, 0, "\(kind): \(output)")
            XCTAssertEqual(fileType(exported), S_IFREG, "\(kind): a regular file, not a link")
            XCTAssertEqual(FileManager.default.contents(atPath: exported), original, kind)
            XCTAssertEqual(mode(of: exported) & 0o044, 0o044, "\(kind): readable by others")
            XCTAssertEqual(mode(of: privateFile), 0o600, "\(kind): the linked file keeps its mode")
        }
    }

    /// Names up to the file system's 255 bytes are exported to (the temporary
    /// name is short); a longer one fails naming the user's path, never a
    /// hidden temporary one.
    func testExportTakesNamesOf255BytesAndNamesTheUsersPathInErrors() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let chinese = String(repeating: "语", count: 83) + "ab.ogg"  // 255 bytes
        XCTAssertEqual(chinese.utf8.count, 255)
        let longest = home.path(chinese)
        var (status, output) = try ChildProcess.run(harkExecutable, ["export", id, longest], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(fileType(longest), S_IFREG)
        let mp3 = home.path(String(repeating: "a", count: 251) + ".mp3")
        (status, output) = try ChildProcess.run(harkExecutable, ["export", id, mp3], environment: environment)
        XCTAssertEqual(status, 0, output)
        let png = home.path(String(repeating: "w", count: 251) + ".png")
        (status, output) = try ChildProcess.run(harkExecutable, ["waveform", id, "--png", png], environment: environment)
        XCTAssertEqual(status, 0, output)

        let tooLong = home.path(String(repeating: "x", count: 252) + ".ogg")
        (status, output) = try ChildProcess.run(harkExecutable, ["export", id, tooLong], environment: environment)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains(tooLong), output)
        XCTAssertFalse(output.contains("hark-export"), "no temporary name: \(output)")
        XCTAssertEqual(try hiddenFiles(in: home.url.path), [])
    }

    /// Ctrl+C or SIGTERM during a long export: the command ends by itself,
    /// with a failure that says so, and leaves neither the file nor a hidden
    /// partial one.
    func testASignalDuringALongExportRemovesThePartialFile() throws {
        let home = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let long = home.path("long.wav")
        try WAVFile.write([WAVFile.Section(seconds: 900, amplitude: 0.3)], rate: 8_000, to: URL(fileURLWithPath: long))
        let (imported, listing) = try ChildProcess.run(harkExecutable, ["import", long], environment: environment, seconds: 120)
        XCTAssertEqual(imported, 0, listing)
        let id = String(listing.prefix(36))
        let out = home.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        for signal in [SIGINT, SIGTERM] {
            let target = out + "/long.mp3"
            let export = try ChildProcess(harkExecutable, ["export", id, target], environment: environment)
            defer { if export.isRunning { kill(export.process.processIdentifier, SIGKILL) } }
            let deadline = Date().addingTimeInterval(60)
            while try hiddenFiles(in: out).isEmpty, export.isRunning, Date() < deadline { usleep(5_000) }
            XCTAssertTrue(export.isRunning, "still exporting when the partial file appeared: \(export.output)")
            kill(export.process.processIdentifier, signal)
            XCTAssertEqual(export.waitForExit(seconds: 20), 1, "signal \(signal): \(export.output)")
            XCTAssertEqual(export.process.terminationReason, .exit, "ended by itself, not killed by the signal")
            XCTAssertTrue(export.output.contains("interrupted: \(target) was not written"), export.output)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "signal \(signal): nothing left")
        }
    }

    /// What an export killed outright left (Hark's own temporary names, old
    /// and new) goes the next time Hark writes into that folder; anything
    /// else stays.
    func testLeftoversOfAKilledExportAreRemovedAtTheNextExportThere() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let out = home.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        for name in [".long.mp3.hark-export-1A2B3C4D", ".hark-export-0badf00d", ".hark-export-notes", ".other"] {
            try Data(count: 4096).write(to: URL(fileURLWithPath: out + "/" + name))
        }
        try FileManager.default.createSymbolicLink(atPath: out + "/.hark-export-12345678", withDestinationPath: "/etc/hostname")
        let (status, output) = try ChildProcess.run(harkExecutable, ["export", id, out + "/new.ogg"], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(),
                       [".hark-export-12345678", ".hark-export-notes", ".other", "new.ogg"])
    }

    /// A link in the messages folder to a file outside the store is not made
    /// a message, and the command says so, naming it.
    func testALinkToAFileOutsideTheStoreIsLeftAloneAndNamed() throws {
        let home = try ScratchFolder()
        let (id, environment) = try recordedMessage(in: home)
        let outside = home.path("outside.ogg")
        XCTAssertEqual(rename(home.path("data/hark/messages/\(id).ogg"), outside), 0)
        let link = home.path("data/hark/messages/linked.ogg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let (status, output) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("\(link) is a symbolic link to a file outside the store"), output)
        // The page comes before the check, which found the message's own file gone.
        let (_, after) = try ChildProcess.run(harkExecutable, ["list"], environment: environment)
        XCTAssertEqual(after.split(separator: "\n").filter { $0.contains("ready") }.count, 0, "not adopted: \(after)")
    }

    // MARK: helpers

    private func mountedStick() throws -> ExFATStick {
        let stick: ExFATStick
        do { stick = try ExFATStick() } catch let error as ExFATStick.Unavailable { throw XCTSkip(error.description) }
        addTeardownBlock { stick.unmount() }
        return stick
    }

    private func recordedMessage(in home: ScratchFolder) throws -> (id: String, environment: [String: String]) {
        let environment = ["XDG_DATA_HOME": home.path("data")]
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "1", "--source", tone],
                                                    environment: environment)
        XCTAssertEqual(status, 0, output)
        return (output.trimmingCharacters(in: .whitespacesAndNewlines), environment)
    }

    private func hiddenFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
    }

    private func fileType(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    private func mode(of path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }
}
