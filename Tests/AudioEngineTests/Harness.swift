import AudioEngine
import GLibSupport
import XCTest

/// Synchronous XCTest methods on the process's main thread, as in
/// GLibSupportTests: the recorder and player live on the GLib main loop.
func onMainActor(_ body: @MainActor () throws -> Void) rethrows {
    try MainActor.assumeIsolated {
        MainLoop.bridgeSwiftConcurrency()
        try body()
    }
}

/// A live test tone: it runs in real time, like a microphone.
func liveTone(amplitude: Double, frequency: Int = 440) -> RecorderSource {
    .pipeline("audiotestsrc is-live=true wave=sine freq=\(frequency) volume=\(amplitude)")
}

/// Records from `source` until the recorder finishes or fails; `during` may
/// act on the recorder at each level event.
@MainActor
func record(to path: String, from source: RecorderSource, maximumDuration: Double?, voiceProcessing: Bool = false,
            timeout: Double = 30, during: @escaping @MainActor (Recorder, RecorderEvent) -> Void = { _, _ in })
    throws -> (events: [RecorderEvent], outcome: RecorderEvent?) {
    var events: [RecorderEvent] = []
    var outcome: RecorderEvent?
    let holder = RecorderHolder()
    let recorder = Recorder(outputPath: path, source: source, maximumDuration: maximumDuration,
                            voiceProcessing: voiceProcessing) { event in
        events.append(event)
        switch event {
        case .finished, .failed, .cancelled: outcome = event
        default: if let recorder = holder.recorder { during(recorder, event) }
        }
    }
    holder.recorder = recorder
    try recorder.start()
    XCTAssertTrue(MainLoop.iterate(until: { outcome != nil }, timeout: timeout), "the recording never ended")
    return (events, outcome)
}

func expectedSineRMS(_ amplitude: Double) -> Double { 20 * log10(amplitude / 2.0.squareRoot()) }

extension RecorderEvent {
    var recording: Recording? {
        if case .finished(let recording) = self { return recording }
        return nil
    }
    var error: AudioError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

@MainActor
private final class RecorderHolder {
    weak var recorder: Recorder?
}
