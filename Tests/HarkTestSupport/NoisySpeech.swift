import Foundation

/// Speech over steady noise, as a laptop's microphone hears a voice over its
/// fan: espeak-ng's speech with pauses between the sentences, and pink noise
/// at a known level under all of it, written as a WAV file. The tests judge
/// voice processing by how far the speech stands out from the pauses.
public enum NoisySpeech {
    public static let sentences = [
        "The dentist moved my appointment to Monday at ten, so please call me back.",
        "I will bring the documents and the keys when I come home tonight.",
    ]
    /// The noise's RMS, in dBFS: a quiet fan heard by a laptop's microphone.
    public static let noiseLevel = -50.0
    /// The speech's RMS over its voiced samples, in dBFS.
    public static let speechLevel = -24.0
    /// Noise only, before, between and after the sentences (seconds).
    public static let pause = 2.0

    /// Writes the mix to `path` (mono, espeak-ng's rate); `scratch` holds
    /// espeak's own files.
    public static func write(to path: String, scratch: ScratchFolder) throws {
        var speech: [[Double]] = []
        var rate = 0
        for (index, sentence) in sentences.enumerated() {
            let file = scratch.path("sentence-\(index).wav")
            try PulseAudioServer.speech(sentence, to: file)
            let (samples, sentenceRate) = try WAVFile.read(file)
            rate = sentenceRate
            speech.append(scaled(samples, toVoicedRMS: speechLevel))
        }
        let gap = [Double](repeating: 0, count: Int(pause * Double(rate)))
        var signal = gap
        for sentence in speech { signal += sentence + gap }
        let noise = pinkNoise(count: signal.count, rms: noiseLevel)
        try WAVFile.write(samples: zip(signal, noise).map { $0 + $1 }, rate: rate, to: URL(fileURLWithPath: path))
    }

    /// The level (dBFS) that `fraction` of the 50 ms intervals stay under:
    /// with the speech about half of the signal, the 90th percentile is the
    /// speech's loud part and the 10th the pauses' noise, without having to
    /// know where the sentences fell in a recording.
    public static func percentile(_ levels: [Double], _ fraction: Double) -> Double {
        let sorted = levels.sorted()
        guard !sorted.isEmpty else { return -100 }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * fraction).rounded())))]
    }

    /// How far the speech stands above the pauses (dB), and the speech's level.
    public static func speechAndGap(_ levels: [Double]) -> (speech: Double, gap: Double) {
        let speech = percentile(levels, 0.9)
        return (speech, speech - percentile(levels, 0.1))
    }

    private static func scaled(_ samples: [Double], toVoicedRMS level: Double) -> [Double] {
        let voiced = samples.filter { abs($0) > 0.01 }
        let rms = (voiced.reduce(0) { $0 + $1 * $1 } / Double(max(1, voiced.count))).squareRoot()
        guard rms > 0 else { return samples }
        let gain = pow(10, level / 20) / rms
        return samples.map { $0 * gain }
    }

    /// Pink noise (Paul Kellet's filter over white noise from a fixed seed),
    /// scaled to `rms` dBFS.
    static func pinkNoise(count: Int, rms level: Double) -> [Double] {
        var generator = SeededGenerator(seed: 0x5EED)
        var b = [Double](repeating: 0, count: 7)
        var noise = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let white = Double.random(in: -1...1, using: &generator)
            b[0] = 0.99886 * b[0] + white * 0.0555179
            b[1] = 0.99332 * b[1] + white * 0.0750759
            b[2] = 0.96900 * b[2] + white * 0.1538520
            b[3] = 0.86650 * b[3] + white * 0.3104856
            b[4] = 0.55000 * b[4] + white * 0.5329522
            b[5] = -0.7616 * b[5] - white * 0.0168980
            noise[index] = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362
            b[6] = white * 0.115926
        }
        let rms = (noise.reduce(0) { $0 + $1 * $1 } / Double(max(1, count))).squareRoot()
        let gain = rms > 0 ? pow(10, level / 20) / rms : 0
        return noise.map { $0 * gain }
    }
}

/// SplitMix64: the same noise on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
