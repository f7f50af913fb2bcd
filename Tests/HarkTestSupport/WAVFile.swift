import Foundation

/// Writes 16-bit PCM WAV files from sample values, for tests that need audio
/// whose levels are known independently of GStreamer.
public enum WAVFile {
    /// One stretch of a test signal: a sine of `amplitude` (0…1) at
    /// `frequency` Hz, or silence when the amplitude is 0.
    public struct Section: Sendable {
        public var seconds: Double
        public var amplitude: Double
        public var frequency: Double
        public init(seconds: Double, amplitude: Double, frequency: Double = 440) {
            self.seconds = seconds
            self.amplitude = amplitude
            self.frequency = frequency
        }
        /// The RMS a sine of this amplitude has, in dBFS.
        public var expectedRMS: Double { 20 * log10(amplitude / 2.0.squareRoot()) }
    }

    public static func write(_ sections: [Section], rate: Int = 44_100, channels: Int = 1, to url: URL) throws {
        var samples: [Int16] = []
        var phase = 0.0
        for section in sections {
            let count = Int((section.seconds * Double(rate)).rounded())
            for _ in 0..<count {
                let value = section.amplitude * sin(phase)
                phase += 2 * .pi * section.frequency / Double(rate)
                let sample = Int16(max(-32768, min(32767, (value * 32767).rounded())))
                for _ in 0..<channels { samples.append(sample) }
            }
        }
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * 2
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + payload))
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(channels))
        append(UInt32(rate)); append(UInt32(rate * channels * 2)); append(UInt16(channels * 2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(payload))
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: url)
    }
}

/// A scratch folder removed when the test is done with it.
public final class ScratchFolder {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Runs gst-launch-1.0 (the reference tool, not Hark's code) to completion.
public func gstLaunch(_ description: String) throws {
    let (status, output) = try ChildProcess.run("/usr/bin/gst-launch-1.0", ["-q"] + description.split(separator: " ").map(String.init), seconds: 120)
    guard status == 0 else { throw ReferenceToolFailed(output: output) }
}

public struct ReferenceToolFailed: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "gst-launch-1.0 failed: \(output)" }
}

/// Whether an Ogg file's last page carries the end-of-stream flag: the mark
/// of a recording that was closed properly, not cut off by a kill.
public func oggEndsCleanly(_ path: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: path), data.count > 27 else { return false }
    let bytes = [UInt8](data)
    var index = bytes.count - 27
    while index >= 0 {
        if bytes[index] == 0x4F, bytes[index + 1] == 0x67, bytes[index + 2] == 0x67, bytes[index + 3] == 0x53,
           bytes[index + 4] == 0 {
            return bytes[index + 5] & 0x04 != 0  // header type: end of stream
        }
        index -= 1
    }
    return false
}
