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

    /// Writes mono samples (-1…1).
    public static func write(samples values: [Double], rate: Int, to url: URL) throws {
        try write(pcm: values.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }, rate: rate, channels: 1, to: url)
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
        try write(pcm: samples, rate: rate, channels: channels, to: url)
    }

    private static func write(pcm samples: [Int16], rate: Int, channels: Int, to url: URL) throws {
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
    public init(output: String) { self.output = output }
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

extension WAVFile {
    /// The samples (first channel, scaled to -1…1) and rate of a 16-bit PCM
    /// WAV file, read chunk by chunk: the tests' own, independent reader.
    public static func read(_ path: String) throws -> (samples: [Double], rate: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var offset = 12
        var rate = 0, channels = 1, bits = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            if id == "fmt " {
                channels = u16(offset + 10)
                rate = u32(offset + 12)
                bits = u16(offset + 22)
            } else if id == "data" {
                guard bits == 16, rate > 0 else { break }
                if size == 0 || size > bytes.count - offset - 8 { size = bytes.count - offset - 8 }  // streamed WAV
                let frame = 2 * channels
                let samples = stride(from: offset + 8, to: offset + 8 + size - frame + 1, by: frame).map {
                    Double(Int16(bitPattern: UInt16(u16($0)))) / 32768
                }
                return (samples, rate)
            }
            offset += 8 + size + (size & 1)
        }
        throw ReferenceToolFailed(output: "\(path): not a 16-bit PCM WAV file")
    }

    /// RMS in dBFS of consecutive intervals, interval k ending at sample
    /// round(k·rate·seconds): computed here, from the samples, by the tests.
    public static func intervalRMS(_ samples: [Double], rate: Int, seconds: Double = 0.05) -> [Double] {
        var result: [Double] = []
        var start = 0
        var index = 1
        while start < samples.count {
            let end = min(samples.count, Int((Double(index) * seconds * Double(rate)).rounded()))
            let slice = samples[start..<end]
            let meanSquare = slice.reduce(0) { $0 + $1 * $1 } / Double(slice.count)
            result.append(meanSquare > 0 ? max(-100, 10 * log10(meanSquare)) : -100)
            start = end
            index += 1
        }
        return result
    }
}
