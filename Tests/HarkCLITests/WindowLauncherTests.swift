import Foundation
import HarkTestSupport
import XCTest

/// The command line links no GTK, so that `hark record` starts at once: the
/// window is an executable of its own, which `hark` execs for the window
/// and the gallery, found beside it (a build) or in PREFIX/libexec/hark.
final class WindowLauncherTests: XCTestCase {
    private var windowExecutable: String {
        URL(fileURLWithPath: harkExecutable).deletingLastPathComponent().appendingPathComponent("hark-window").path
    }

    /// A recording process has no GTK in its memory.
    func testARecordingProcessDoesNotLoadGTK() throws {
        let scratch = try ScratchFolder()
        let output = scratch.path("take.ogg")
        let recorder = try ChildProcess(harkExecutable, ["record", "--raw", "--duration", "30", "--output", output,
                                                         "--source", "audiotestsrc is-live=true"])
        defer { recorder.process.interrupt(); _ = recorder.waitForExit(seconds: 30) }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: output), Date() < deadline, recorder.process.isRunning {
            usleep(50_000)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: output), "recording: \(recorder.output)")
        // Read to the end: /proc's files give no size to read by.
        let mapsFile = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(recorder.process.processIdentifier)/maps"))
        let maps = String(decoding: mapsFile.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(maps.contains("libgstreamer-1.0"), "the maps are the recorder's")
        XCTAssertFalse(maps.contains("libgtk-4"), "GTK is not loaded by `hark record`")
    }

    /// Installed as `make install` lays it out, `hark` becomes the window's
    /// executable: without a display, the window's own sentence, not a crash.
    func testHarkStartsTheWindowFromLibexec() throws {
        let prefix = try ScratchFolder()
        try FileManager.default.createDirectory(atPath: prefix.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix.path("libexec/hark"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: harkExecutable, toPath: prefix.path("bin/hark"))
        try FileManager.default.copyItem(atPath: windowExecutable, toPath: prefix.path("libexec/hark/hark-window"))
        let (status, output) = try ChildProcess.run("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY",
                                                                      prefix.path("bin/hark")])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("the window cannot open: no display"), output)
        XCTAssertFalse(output.contains("not installed"), output)
    }

    /// Without the window's executable, `hark` says where it looked.
    func testAMissingWindowIsSaidInASentence() throws {
        let folder = try ScratchFolder()
        try FileManager.default.copyItem(atPath: harkExecutable, toPath: folder.path("hark"))
        for arguments in [[], ["gallery"], ["--background"]] {
            let (status, output) = try ChildProcess.run(folder.path("hark"), arguments)
            XCTAssertEqual(status, 1, output)
            XCTAssertTrue(output.contains("Hark's window is not installed: no hark-window at \(folder.path("hark-window"))"),
                          output)
        }
    }
}
