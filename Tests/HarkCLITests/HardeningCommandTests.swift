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
}

extension TinyDisk {
    /// A nearly full tmpfs, or a skipped test where none can be mounted.
    convenience init(skippingUnlessMountable kilobytes: Int, leaveFreeKilobytes: Int) throws {
        do { try self.init(kilobytes: kilobytes, leaveFreeKilobytes: leaveFreeKilobytes) } catch let error as TinyDisk.Unavailable {
            throw XCTSkip(error.description)
        }
    }
}
