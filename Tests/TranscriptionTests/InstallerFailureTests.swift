import Foundation
import GLibSupport
import HarkTestSupport
import HelperProcesses
import Transcription
import XCTest

/// The real installer, run in the background as the window runs it
/// (EngineInstallation), failing the two ways a user's machine makes it
/// fail: no network (pip pointed at an index nobody answers) and a full disk
/// (a tiny tmpfs). Each is said by its cause, and no engine is left behind.
final class InstallerFailureTests: XCTestCase {
    /// Runs the installer into `folder` with `environment` added to this
    /// process's (the installer inherits it, as from the window).
    @MainActor
    private static func install(into folder: String, environment: [String: String] = [:])
        -> (outcome: EngineInstallation.Outcome?, seen: [InstallProgress]) {
        let saved = environment.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        environment.forEach { setenv($0.key, $0.value, 1) }
        defer { saved.forEach { key, value in if let value { setenv(key, value, 1) } else { unsetenv(key) } } }
        let engine = Engine(folder: folder, helperScript: SpokenMessages.engine.helperScript,
                            installer: SpokenMessages.engine.installer)
        let installation: EngineInstallation
        do { installation = try EngineInstallation.start(engine: engine, multilingual: false) } catch {
            XCTFail("\(error)")
            return (nil, [])
        }
        var seen: [InstallProgress] = []
        var outcome: EngineInstallation.Outcome?
        installation.onProgress = { seen.append($0) }
        installation.onFinish = { outcome = $0 }
        XCTAssertTrue(MainLoop.iterate(until: { outcome != nil }, timeout: 300), "\(seen.map(\.text))")
        XCTAssertFalse(engine.isInstalled)
        return (outcome, seen)
    }

    func testAnUnreachableIndexIsSaidAsNoNetwork() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let (outcome, seen) = Self.install(into: scratch.path("engine"), environment: [
                "PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_FIND_LINKS": "",
            ])
            XCTAssertEqual(outcome, .failed(.noNetwork), "\(seen.map(\.text))")
            // It got as far as a download before it failed, and said so as it went.
            XCTAssertTrue(seen.contains { $0.text.hasPrefix("Downloading") && $0.fraction > 0 }, "\(seen.map(\.text))")
        }
    }

    func testAFullDiskIsSaidAsSuch() throws {
        try onMainActor {
            let disk: TinyDisk
            do { disk = try TinyDisk(kilobytes: 4096, leaveFreeKilobytes: 2048) } catch let error as TinyDisk.Unavailable {
                throw XCTSkip(error.description)
            }
            let (outcome, _) = Self.install(into: disk.path("engine"))
            XCTAssertEqual(outcome, .failed(.noDiskSpace))
            XCTAssertFalse(FileManager.default.fileExists(atPath: disk.path("engine")), "nothing half made")
        }
    }
}
