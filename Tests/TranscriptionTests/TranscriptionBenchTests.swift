import Foundation
import GLibSupport
import HarkTestSupport
import MessageStore
import Transcription
import XCTest

/// `make bench`'s transcription lines (scripts/bench runs this with
/// HARK_TRANSCRIPTION_BENCH=1; skipped otherwise): a 10 s spoken message
/// recorded through `hark record`, then from its save (the Stop) to its
/// transcript stored, the first with the helper's start and the next ones
/// with it running; CPU seconds per second of audio; the helper's peak memory.
final class TranscriptionBenchTests: XCTestCase {
    private static let speech = "Hello, it is me. The dentist moved my appointment to Thursday at ten in the morning. "
        + "Could you take the children to school that day? I will pick them up at four. "
        + "Call me back when you can."

    func testBenchTranscription() throws {
        guard ProcessInfo.processInfo.environment["HARK_TRANSCRIPTION_BENCH"] != nil else {
            throw XCTSkip("only for make bench")
        }
        try onMainActor {
            let spoken = try SpokenMessages()
            let ids = try (0..<4).map { _ in try spoken.record(saying: Self.speech) }
            let store = try MessageStore(folder: spoken.storeFolder)
            let duration = try store.message(ids[0]).duration
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine, only: Set(ids))
            var latencies: [Double] = []
            var cpu: [Double] = []
            for id in ids {
                try store.queueTranscription([id])
                var finished = false
                transcriber.onEvent = { if case .finished(id, _) = $0 { finished = true } }
                let stop = Date()
                transcriber.wake()
                XCTAssertTrue(MainLoop.iterate(until: { finished }, timeout: 300))
                latencies.append(Date().timeIntervalSince(stop))
                cpu.append((transcriber.lastCPUSeconds ?? .nan) / duration)
                XCTAssertEqual(try store.message(id).transcriptState, .done)
            }
            transcriber.stop()
            let next = Array(latencies.dropFirst()).sorted()[1]
            let nextCPU = Array(cpu.dropFirst()).sorted()[1]
            let memory = Double(transcriber.peakMemory ?? 0) / 1_048_576
            print(String(format: "transcription: a %.1f s message, Stop to transcript: first %.2f s (goal: under 3 s), "
                         + "next %.2f s (median of 3; goal: under 1.5 s); CPU %.3f s per audio s (goal: at most 0.25); "
                         + "helper's peak memory %.0f MB (goal: under 400 MB)",
                         duration, latencies[0], next, nextCPU, memory))
        }
    }
}
