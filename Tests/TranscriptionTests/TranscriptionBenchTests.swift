import Foundation
import GLibSupport
import HarkTestSupport
import MessageStore
import Transcription
import XCTest

/// `make bench`'s transcription lines (scripts/bench runs this with
/// HARK_TRANSCRIPTION_BENCH=1; skipped otherwise): a 10 s spoken message
/// recorded through `hark record`, then from its save (the Stop) to its
/// transcript stored: the first of a session with the helper started as the
/// recording started (as the window does it) and with the helper started
/// only at the Stop (cold), and the next ones with it running; CPU seconds
/// per second of audio; the helper's peak memory. Once with English (tiny.en)
/// and once with German speech through the multilingual model, its language
/// detected.
final class TranscriptionBenchTests: XCTestCase {
    private static let english = "Hello, it is me. The dentist moved my appointment to Thursday at ten in the morning. "
        + "Could you take the children to school that day? I will pick them up at four. "
        + "Call me back when you can."
    private static let german = "Hallo, ich bin es. Der Zahnarzt hat meinen Termin auf Donnerstag um zehn Uhr verschoben. "
        + "Kannst du an dem Tag die Kinder zur Schule bringen? Ich hole sie um vier ab. Ruf mich an, wenn du kannst."

    func testBenchTranscription() throws {
        guard ProcessInfo.processInfo.environment["HARK_TRANSCRIPTION_BENCH"] != nil else {
            throw XCTSkip("only for make bench")
        }
        try onMainActor {
            try Self.bench(label: "English (tiny.en)", saying: Self.english, voice: nil, language: "en")
            try Self.bench(label: "German, detected (multilingual base)", saying: Self.german, voice: "de", language: "auto")
        }
    }

    /// Seconds from queueing `id` (the Stop) to its transcript stored.
    @MainActor
    private static func stopToTranscript(_ id: String, store: MessageStore, transcriber: Transcriber) throws -> Double {
        try store.queueTranscription([id])
        var finished = false
        transcriber.onEvent = { if case .finished(id, _) = $0 { finished = true } }
        let stop = Date()
        transcriber.wake()
        XCTAssertTrue(MainLoop.iterate(until: { finished }, timeout: 300))
        let seconds = Date().timeIntervalSince(stop)
        XCTAssertEqual(try store.message(id).transcriptState, .done)
        return seconds
    }

    @MainActor
    private static func bench(label: String, saying speech: String, voice: String?, language: String) throws {
        let spoken = try SpokenMessages()
        let ids = try (0..<5).map { _ in try spoken.record(saying: speech, voice: voice) }
        let store = try MessageStore(folder: spoken.storeFolder)
        try store.setSetting(MessageStore.transcriptionLanguageSetting, language)
        let duration = try store.message(ids[0]).duration

        // Cold: the helper starts at the Stop.
        let cold = Transcriber(store: store, engine: SpokenMessages.engine, only: [ids[0]])
        let coldSeconds = try Self.stopToTranscript(ids[0], store: store, transcriber: cold)
        cold.stop()

        // As the window does it: the helper starts as the recording starts,
        // and the recording lasts `duration` seconds before its Stop.
        let transcriber = Transcriber(store: store, engine: SpokenMessages.engine, only: Set(ids.dropFirst()))
        transcriber.prepare()
        MainLoop.iterate(until: { false }, timeout: duration)
        var latencies: [Double] = []
        var cpu: [Double] = []
        for id in ids.dropFirst() {
            latencies.append(try Self.stopToTranscript(id, store: store, transcriber: transcriber))
            cpu.append((transcriber.lastCPUSeconds ?? .nan) / duration)
        }
        transcriber.stop()
        let next = Array(latencies.dropFirst()).sorted()[1]
        let nextCPU = Array(cpu.dropFirst()).sorted()[1]
        let memory = Double(max(transcriber.peakMemory ?? 0, cold.peakMemory ?? 0)) / 1_048_576
        print(String(format: "transcription: %@: a %.1f s message, Stop to transcript: first %.2f s "
                     + "(helper started with the recording; %.2f s started at the Stop; goal: under 3 s), "
                     + "next %.2f s (median of 3; goal: under 1.5 s); CPU %.3f s per audio s (goal: at most 0.25); "
                     + "helper's peak memory %.0f MB (goal: under 400 MB)",
                     label, duration, latencies[0], coldSeconds, next, nextCPU, memory))
    }
}
