import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import Levels
import XCTest

final class RecorderTests: XCTestCase {
    func testSineLevelsReadAmplitudeOverRootTwo() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            for amplitude in [0.5, 0.1] {
                let (events, outcome) = try record(to: scratch.path("tone-\(amplitude).ogg"),
                                                   from: liveTone(amplitude: amplitude), maximumDuration: 0.5)
                let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
                XCTAssertGreaterThanOrEqual(recording.levels.count, 9)
                for rms in recording.levels.rms {
                    XCTAssertEqual(rms, expectedSineRMS(amplitude), accuracy: 0.5, "amplitude \(amplitude)")
                }
                let live = events.compactMap { event -> Double? in
                    if case .level(let rms, _, _) = event { return rms } else { return nil }
                }
                XCTAssertEqual(live, recording.levels.rms, "the live levels are the kept ones")
                XCTAssertTrue(events.contains(.started))
            }
        }
    }

    func testRecordingLastsItsDurationAndTheFileAgrees() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("two-seconds.ogg")
            let (_, outcome) = try record(to: path, from: liveTone(amplitude: 0.3), maximumDuration: 2)
            let recording = try XCTUnwrap(outcome?.recording)
            XCTAssertTrue(recording.reachedMaximumDuration)
            XCTAssertEqual(recording.duration, 2, accuracy: 0.06)
            let levels = recording.levels
            XCTAssertEqual(Double(levels.count * levels.intervalMilliseconds) / 1000, recording.duration, accuracy: 0.051,
                           "the levels cover the recording")
            let analysis = try Analyzer.analyze(path: path)
            XCTAssertEqual(analysis.duration, recording.duration, accuracy: 0.06, "the file holds what was reported")
        }
    }

    func testMaximumDurationIsExactEvenWhenTheMainThreadIsSlow() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("limited.ogg")
            var stalled = false
            let (_, outcome) = try record(to: path, from: liveTone(amplitude: 0.3), maximumDuration: 1) { _, event in
                if case .level(_, _, let elapsed) = event, elapsed >= 0.7, !stalled {
                    stalled = true
                    usleep(600_000)  // a busy main thread: the limit passes meanwhile
                }
            }
            let recording = try XCTUnwrap(outcome?.recording)
            XCTAssertEqual(recording.duration, 1, accuracy: 0.001, "cut on the streaming thread, not when noticed")
            XCTAssertEqual(recording.levels.count, 20)
            XCTAssertEqual(try Analyzer.analyze(path: path).duration, 1, accuracy: 0.03)
        }
    }

    func testPauseAndResumeLeaveNoGap() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("paused.ogg")
            var pausedAt: Double?
            var resumedAfterWallSeconds: Double?
            let (events, outcome) = try record(to: path, from: liveTone(amplitude: 0.4), maximumDuration: 2) { recorder, event in
                guard case .level(_, _, let elapsed) = event, elapsed >= 0.8, pausedAt == nil else { return }
                pausedAt = elapsed
                recorder.pause()
                let wallStart = Date()
                MainLoop.timeout(milliseconds: 1_000) {
                    resumedAfterWallSeconds = Date().timeIntervalSince(wallStart)
                    recorder.resume()
                    return false
                }
            }
            let recording = try XCTUnwrap(outcome?.recording)
            XCTAssertNotNil(pausedAt)
            XCTAssertGreaterThanOrEqual(resumedAfterWallSeconds ?? 0, 1)
            XCTAssertTrue(events.contains(.paused) && events.contains(.resumed))
            XCTAssertEqual(recording.duration, 2, accuracy: 0.06, "the pause is not in the recording")
            XCTAssertEqual(recording.levels.count, 40, accuracy: 2)
            for rms in recording.levels.rms {
                XCTAssertEqual(rms, expectedSineRMS(0.4), accuracy: 0.5, "no silent gap in the levels")
            }
            let analysis = try Analyzer.analyze(path: path)
            XCTAssertEqual(analysis.duration, 2, accuracy: 0.08)
            XCTAssertEqual(analysis.levels.rms.min() ?? -100, expectedSineRMS(0.4), accuracy: 1.5,
                           "no gap of silence in the file either")
        }
    }

    func testStopWhilePausedKeepsTheRecordingAndEndsTheFileCleanly() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            var paused = false
            let (_, outcome) = try record(to: scratch.path("stopped.ogg"), from: liveTone(amplitude: 0.2),
                                          maximumDuration: nil) { recorder, event in
                if case .level(_, _, let elapsed) = event, elapsed >= 0.5, !paused {
                    paused = true
                    recorder.pause()
                    MainLoop.timeout(milliseconds: 700) {  // sit in PAUSED for a while
                        recorder.stop()
                        return false
                    }
                }
            }
            let recording = try XCTUnwrap(outcome?.recording)
            XCTAssertNil(recording.interruption, "stopped by EOS, not by the watchdog")
            XCTAssertEqual(recording.duration, 0.5, accuracy: 0.1)
            XCTAssertTrue(oggEndsCleanly(recording.path), "the last Ogg page marks the end of stream")
            XCTAssertNoThrow(try Analyzer.analyze(path: recording.path))
        }
    }

    func testAnExistingFileOrFolderIsNeverWrittenOverNorDeleted() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let file = scratch.path("precious.ogg")
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
            let folder = scratch.path("Music")
            try FileManager.default.createDirectory(atPath: folder + "/album", withIntermediateDirectories: true)
            for path in [file, folder] {
                let recorder = Recorder(outputPath: path, source: liveTone(amplitude: 0.1)) { _ in }
                XCTAssertThrowsError(try recorder.start()) { error in
                    guard case .cannotWrite(_, let detail) = error as? AudioError else { return XCTFail("\(error)") }
                    XCTAssertTrue(detail.contains("already exists"))
                }
            }
            XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep me")
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/album"))
        }
    }

    func testASourceThatSendsNothingIsReportedNotWaitedForForever() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("silent.ogg")
            // A live source that never produces a buffer.
            let (_, outcome) = try record(to: path, from: .pipeline("appsrc is-live=true format=time caps=audio/x-raw,format=S16LE,rate=48000,channels=1,layout=interleaved"),
                                          maximumDuration: nil, timeout: 20)
            guard case .failed(.invalidSource) = outcome else { return XCTFail("got \(String(describing: outcome))") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
    }

    func testCancelDeletesTheFile() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("cancelled.ogg")
            let (_, outcome) = try record(to: path, from: liveTone(amplitude: 0.2), maximumDuration: nil) { recorder, event in
                if case .level(_, _, let elapsed) = event, elapsed >= 0.3 { recorder.cancel() }
            }
            XCTAssertEqual(outcome, .cancelled)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
    }

    func testUnwritableOrMissingFolderIsRefusedAtOnce() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let missing = Recorder(outputPath: scratch.path("no/such/folder/x.ogg"), source: liveTone(amplitude: 0.1)) { _ in }
            XCTAssertThrowsError(try missing.start()) { error in
                guard case .cannotWrite = error as? AudioError else { return XCTFail("\(error)") }
            }
            let locked = scratch.path("locked")
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o500])
            if getuid() != 0 {  // root writes anywhere: the sink must fail instead
                let recorder = Recorder(outputPath: locked + "/x.ogg", source: liveTone(amplitude: 0.1)) { _ in }
                XCTAssertThrowsError(try recorder.start())
            }
        }
    }

    func testBadSourceDescriptionIsRefused() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let recorder = Recorder(outputPath: scratch.path("x.ogg"), source: .pipeline("no-such-element-here")) { _ in }
            XCTAssertThrowsError(try recorder.start()) { error in
                guard case .invalidSource = error as? AudioError else { return XCTFail("\(error)") }
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path("x.ogg")))
        }
    }

    func testNoSoundServerIsAMicrophoneErrorAndLeavesNoFile() throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = scratch.path("nothing.ogg")
            let previous = ProcessInfo.processInfo.environment["PULSE_SERVER"]
            setenv("PULSE_SERVER", "unix:\(scratch.path("no-server-here"))", 1)
            defer { if let previous { setenv("PULSE_SERVER", previous, 1) } else { unsetenv("PULSE_SERVER") } }
            let started = Date()
            var reported: AudioError?
            let recorder = Recorder(outputPath: path) { event in
                if case .failed(let error) = event { reported = error }
            }
            do {
                try recorder.start()
                MainLoop.iterate(until: { reported != nil }, timeout: 5)
            } catch {
                reported = error as? AudioError
            }
            guard case .microphoneUnavailable = reported else { return XCTFail("got \(String(describing: reported))") }
            XCTAssertLessThan(Date().timeIntervalSince(started), 2, "reported within 2 s")
            XCTAssertTrue(reported!.description.contains("microphone"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
    }

    func testDiskFullStopsAndKeepsWhatWasWritten() throws {
        try onMainActor {
            let disk = try TinyDisk(skippingUnlessMountable: 256, leaveFreeKilobytes: 8)
            let path = disk.path("full.ogg")
            let (_, outcome) = try record(to: path, from: liveTone(amplitude: 0.5), maximumDuration: 60, timeout: 60)
            let recording = try XCTUnwrap(outcome?.recording, "\(String(describing: outcome))")
            XCTAssertEqual(recording.interruption, .diskFull(path: path))
            XCTAssertTrue(recording.interruption!.description.contains("disk is full"))
            XCTAssertLessThan(recording.duration, 59)
            let analysis = try Analyzer.analyze(path: path)
            XCTAssertGreaterThan(analysis.duration, 0.5, "what was written plays")
            XCTAssertEqual(recording.duration, analysis.duration, "the reported length is the file's")
            XCTAssertEqual(recording.levels, analysis.levels)
        }
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
