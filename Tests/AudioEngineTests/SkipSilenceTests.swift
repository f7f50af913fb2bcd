import AudioEngine
import Foundation
import GLibSupport
import HarkTestSupport
import Levels
import XCTest

/// Skip Silence on a real clock: the player's output goes, as it is played
/// (`sync=true`), into a file of raw samples, read back to see which parts of
/// the message were heard.
final class SkipSilenceTests: XCTestCase {
    private static let rate = 48_000
    private static let burstSeconds = 1.0
    private static let pauses = [0.2, 1, 3]

    /// Tone bursts (−13 dBFS) with pauses of 0.2, 1 and 3 s between them, over a faint hum (−53 dBFS).
    private static func makeMessage(in scratch: ScratchFolder) throws -> String {
        var sections = [WAVFile.Section(seconds: Self.burstSeconds, amplitude: 0.3)]
        for pause in Self.pauses {
            sections.append(WAVFile.Section(seconds: pause, amplitude: 0.003, frequency: 120))
            sections.append(WAVFile.Section(seconds: Self.burstSeconds, amplitude: 0.3))
        }
        let path = scratch.path("bursts.wav")
        try WAVFile.write(sections, rate: Self.rate, to: URL(fileURLWithPath: path))
        return path
    }

    /// Plays `path` whole with Skip Silence at `speed`; the samples heard.
    @MainActor
    private static func played(_ path: String, skipping: SilenceSkipping, speed: Double, scratch: ScratchFolder) throws -> [Int16] {
        let output = scratch.path("heard-\(speed).raw")
        let descriptor = open(output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        // fdsink, not filesink: a flushing seek makes filesink start its file again.
        let sink = "audioconvert ! audioresample ! audio/x-raw,format=S16LE,channels=1,rate=\(Self.rate) "
            + "! fdsink fd=\(descriptor) sync=true"
        var ended = false, duration: Double?
        let player = Player(audioSink: sink) { event in
            if case .duration(let seconds) = event { duration = seconds }
            if event == .ended { ended = true }
        }
        try player.load(path)
        XCTAssertTrue(MainLoop.iterate(until: { duration != nil }, timeout: 10))
        player.setRate(speed)
        player.skipping = skipping
        player.play()
        XCTAssertTrue(MainLoop.iterate(until: { ended }, timeout: 60), "played to the end")
        player.stop()
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The loud and the quiet stretches of `samples`, in seconds of output, by 10 ms windows.
    private static func stretches(of samples: [Int16]) -> [(loud: Bool, seconds: Double)] {
        let window = Self.rate / 100
        var runs: [(loud: Bool, seconds: Double)] = []
        for start in stride(from: 0, to: samples.count - window, by: window) {
            let sum = samples[start..<start + window].reduce(0.0) { $0 + Double($1) * Double($1) }
            let rms = (sum / Double(window)).squareRoot() / 32768
            let loud = Decibels.fromLinear(rms) > -30
            if let last = runs.last, last.loud == loud {
                runs[runs.count - 1].seconds += 0.01
            } else {
                runs.append((loud, 0.01))
            }
        }
        return runs
    }

    private func checkPlayed(at speed: Double) throws {
        try onMainActor {
            let scratch = try ScratchFolder()
            let path = try Self.makeMessage(in: scratch)
            let analysis = try Analyzer.analyze(path: path)
            let skipping = SilenceSkipping(levels: analysis.levels, duration: analysis.duration)
            XCTAssertEqual(skipping.skipped.count, 2, "the 1 s and 3 s pauses, not the 0.2 s one: \(skipping.skipped)")
            XCTAssertEqual(skipping.savedSeconds, (1 - 0.3) + (3 - 0.3), accuracy: 0.15)

            let heard = Self.stretches(of: try Self.played(path, skipping: skipping, speed: speed, scratch: scratch))
            let bursts = heard.filter(\.loud).map(\.seconds)
            let gaps = heard.dropFirst().dropLast().filter { !$0.loud }.map(\.seconds)
            XCTAssertEqual(bursts.count, 4, "\(heard)")
            XCTAssertEqual(gaps.count, 3, "\(heard)")
            guard bursts.count == 4, gaps.count == 3 else { return }
            for burst in bursts {
                XCTAssertEqual(burst, Self.burstSeconds / speed, accuracy: 0.05, "every burst heard whole: \(heard)")
            }
            XCTAssertEqual(gaps[0], 0.2 / speed, accuracy: 0.05, "the short pause kept: \(heard)")
            for gap in gaps.dropFirst() {
                XCTAssertLessThan(gap, SilenceSkipping.longestKeptPause, "a long pause shortened: \(heard)")
                XCTAssertGreaterThan(gap, 0.1 / speed, "a pause remains: \(heard)")
            }
        }
    }

    func testTheLongPausesAreShortenedAndEveryBurstIsHeardWhole() throws {
        try checkPlayed(at: 1)
    }

    func testItWorksAtOtherSpeeds() throws {
        try checkPlayed(at: 1.5)
    }
}
