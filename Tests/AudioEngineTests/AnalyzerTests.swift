@testable import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import Levels
import XCTest

final class AnalyzerTests: XCTestCase {
    /// Loud tone, quiet tone, silence, medium tone: 2.5 s in all.
    private let sections: [WAVFile.Section] = [
        .init(seconds: 0.8, amplitude: 0.5, frequency: 440),
        .init(seconds: 0.6, amplitude: 0.05, frequency: 1_000),
        .init(seconds: 0.5, amplitude: 0),
        .init(seconds: 0.6, amplitude: 0.25, frequency: 300),
    ]

    /// Checks each section's inner intervals (away from the edges) against
    /// the sine's RMS computed from its amplitude.
    private func assertSections(_ analysis: Analysis, tolerance: Double, file: StaticString = #filePath, line: UInt = #line) {
        var start = 0.0
        for section in sections {
            let first = Int(((start + 0.1) / 0.05).rounded(.up))
            let last = Int(((start + section.seconds - 0.1) / 0.05).rounded(.down)) - 1
            for index in first...last {
                let rms = analysis.levels.rms[index]
                if section.amplitude == 0 {
                    XCTAssertLessThan(rms, -60, "silence at interval \(index)", file: file, line: line)
                } else {
                    XCTAssertEqual(rms, section.expectedRMS, accuracy: tolerance,
                                   "interval \(index) of the \(section.amplitude) tone", file: file, line: line)
                }
            }
            start += section.seconds
        }
    }

    func testWAVLevelsMatchTheSignalWithinHalfADecibel() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("tones.wav")
        try WAVFile.write(sections, rate: 44_100, to: URL(fileURLWithPath: path))
        let analysis = try Analyzer.analyze(path: path)
        XCTAssertEqual(analysis.duration, 2.5, accuracy: 0.0001, "exact: counted samples")
        XCTAssertEqual(analysis.levels.count, 50)
        assertSections(analysis, tolerance: 0.5)
    }

    func testStereoWAVIsMeasuredAsItsMonoMix() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("stereo.wav")
        try WAVFile.write(sections, rate: 48_000, channels: 2, to: URL(fileURLWithPath: path))
        let analysis = try Analyzer.analyze(path: path)
        XCTAssertEqual(analysis.duration, 2.5, accuracy: 0.0001)
        assertSections(analysis, tolerance: 0.5)
    }

    func testOpusLevelsMatchTheSignalWithinOneDecibel() throws {
        let scratch = try ScratchFolder()
        let wav = scratch.path("tones.wav")
        let opus = scratch.path("tones.ogg")
        try WAVFile.write(sections, rate: 48_000, to: URL(fileURLWithPath: wav))
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! opusenc bitrate=32000 ! oggmux ! filesink location=\(opus)")
        let analysis = try Analyzer.analyze(path: opus)
        XCTAssertEqual(analysis.duration, 2.5, accuracy: 0.05, "to one interval")
        assertSections(analysis, tolerance: 1)
    }

    func testLongOpusFilesSplitAcrossCoresJoinWithoutASeam() throws {
        // 62 s of 0.7 s tones alternating loud and quiet: long enough to be
        // decoded as two halves, with the split (31 s) inside a tone.
        let tones = (0..<89).map { WAVFile.Section(seconds: 0.7, amplitude: $0 % 2 == 0 ? 0.5 : 0.05, frequency: 500) }
            + [WAVFile.Section(seconds: 0.1, amplitude: 0.5, frequency: 500)]
        let scratch = try ScratchFolder()
        let wav = scratch.path("long.wav")
        let opus = scratch.path("long.ogg")
        try WAVFile.write(tones, rate: 48_000, to: URL(fileURLWithPath: wav))
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! opusenc bitrate=48000 ! oggmux ! filesink location=\(opus)")

        let reference = try Analyzer.analyze(path: wav)  // one pipeline, exact
        let split = try Analyzer.analyze(path: opus)
        XCTAssertGreaterThanOrEqual(split.duration, Analyzer.splitThreshold)
        XCTAssertEqual(split.parallelParts, 2, "decoded as two halves")
        XCTAssertEqual(reference.parallelParts, 1)
        XCTAssertEqual(split.duration, reference.duration, accuracy: 0.05)
        XCTAssertEqual(split.levels.count, reference.levels.count, "no extra interval at the seam")
        // Every interval away from a tone change reads its tone, the split included.
        var start = 0.0
        for tone in tones where tone.seconds > 0.5 {
            let first = Int(((start + 0.1) / 0.05).rounded(.up))
            let last = Int(((start + tone.seconds - 0.1) / 0.05).rounded(.down)) - 1
            for index in first...last {
                XCTAssertEqual(split.levels.rms[index], tone.expectedRMS, accuracy: 1, "interval \(index)")
            }
            start += tone.seconds
        }
    }

    func testProgressRisesToOneAndCancellationStops() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("long.wav")
        try WAVFile.write([.init(seconds: 20, amplitude: 0.3)], rate: 48_000, to: URL(fileURLWithPath: path))
        var fractions: [Double] = []
        _ = try Analyzer.analyze(path: path, progress: { fractions.append($0) })
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(fractions, fractions.sorted(), "never goes back")
        XCTAssertGreaterThan(fractions.count, 2)

        var polls = 0
        XCTAssertThrowsError(try Analyzer.analyze(path: path, isCancelled: { polls += 1; return polls > 3 })) { error in
            XCTAssertEqual(error as? AudioError, .cancelled)
        }
        // The same for a long Opus file, decoded as two halves at once.
        let long = scratch.path("long.ogg")
        try gstLaunch("audiotestsrc num-buffers=3500 samplesperbuffer=960 ! audio/x-raw,rate=48000,channels=1 "
                      + "! opusenc ! oggmux ! filesink location=\(long)")
        var longFractions: [Double] = []
        polls = 0
        XCTAssertThrowsError(try Analyzer.analyze(path: long, progress: { longFractions.append($0) },
                                                  isCancelled: { polls += 1; return polls > 20 })) { error in
            XCTAssertEqual(error as? AudioError, .cancelled)
        }
        XCTAssertLessThan(longFractions.last ?? 0, 1)
        longFractions = []
        let whole = try Analyzer.analyze(path: long, progress: { longFractions.append($0) })
        XCTAssertEqual(whole.duration, 70, accuracy: 0.05)
        XCTAssertEqual(longFractions.last, 1)
        XCTAssertEqual(longFractions, longFractions.sorted(), "two halves, one rising progress")
    }

    func testAsyncAnalysisRunsOffTheMainThreadAndReportsProgressOnIt() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("tone.wav")
        try WAVFile.write([.init(seconds: 3, amplitude: 0.3)], rate: 48_000, to: URL(fileURLWithPath: path))
        onMainActor {
            var result: Result<Analysis, Error>?
            var progress: [Double] = []
            Task { @MainActor in
                do {
                    result = .success(try await Analyzer.analyze(path: path) { progress.append($0) })
                } catch {
                    result = .failure(error)
                }
            }
            XCTAssertTrue(MainLoop.iterate(until: { result != nil }, timeout: 20))
            XCTAssertEqual(try? result?.get().duration, 3)
            MainLoop.iterate(until: { progress.last == 1 }, timeout: 2)
            XCTAssertEqual(progress.last, 1)
        }
    }

    func testCancellingTheTaskStopsTheAnalysis() throws {
        let scratch = try ScratchFolder()
        let path = scratch.path("long.wav")
        try WAVFile.write([.init(seconds: 120, amplitude: 0.3)], rate: 48_000, to: URL(fileURLWithPath: path))
        onMainActor {
            var outcome: Result<Analysis, Error>?
            let task = Task { @MainActor in
                do { outcome = .success(try await Analyzer.analyze(path: path)) } catch { outcome = .failure(error) }
            }
            task.cancel()
            XCTAssertTrue(MainLoop.iterate(until: { outcome != nil }, timeout: 30))
            guard case .failure(let error) = outcome else { return XCTFail("finished despite the cancel") }
            XCTAssertEqual(error as? AudioError, .cancelled)
        }
    }

    func testBadFilesFailWithAReasonNamingTheFile() throws {
        let scratch = try ScratchFolder()
        let empty = scratch.path("empty.ogg")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let random = scratch.path("random.ogg")
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: random))
        let folder = scratch.path("folder.ogg")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let good = scratch.path("good.ogg")
        try gstLaunch("audiotestsrc num-buffers=100 ! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(good)")
        let cut = scratch.path("cut.ogg")
        try Data(try Data(contentsOf: URL(fileURLWithPath: good)).prefix(40)).write(to: URL(fileURLWithPath: cut))

        for path in [empty, random, folder, "/etc/passwd", cut] {
            XCTAssertThrowsError(try Analyzer.analyze(path: path), path) { error in
                guard let error = error as? AudioError else { return XCTFail("\(error)") }
                switch error {
                case .notAudio(let named, _), .noAudio(let named): XCTAssertEqual(named, path)
                default: XCTFail("\(path): \(error)")
                }
                XCTAssertTrue(error.description.contains(path))
                XCTAssertFalse(error.description.contains("\n"))
            }
        }
        XCTAssertThrowsError(try Analyzer.analyze(path: scratch.path("missing.ogg"))) { error in
            XCTAssertEqual(error as? AudioError, .fileMissing(path: scratch.path("missing.ogg")))
        }
    }

    func testOggCutMidAudioGivesWhatDecodes() throws {
        let scratch = try ScratchFolder()
        let good = scratch.path("good.ogg")
        try gstLaunch("audiotestsrc num-buffers=250 samplesperbuffer=960 ! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(good)")
        let data = try Data(contentsOf: URL(fileURLWithPath: good))
        let half = scratch.path("half.ogg")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: half))
        let analysis = try Analyzer.analyze(path: half)
        XCTAssertGreaterThan(analysis.duration, 1.5)
        XCTAssertLessThan(analysis.duration, 4.5)
    }
}
