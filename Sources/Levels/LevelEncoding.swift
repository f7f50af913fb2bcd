import Foundation

/// Stores levels compactly: one byte per value in half-decibel steps from
/// 0 dBFS (byte 0) down to the -100 dBFS floor (byte 200). Half a decibel is
/// below what anyone can see in a bar or hear in a level. Every byte a level
/// encodes to decodes and re-encodes to itself, exactly; bytes above 200 are
/// never written and read as the floor.
public enum LevelEncoding {
    /// The identifier stored beside the blob, so a later format can coexist.
    public static let name = "u8-halfdb"
    public static let stepDecibels = 0.5

    public static func encode(_ decibels: Double) -> UInt8 {
        let level = Decibels.clamp(decibels)
        let steps = (-level / stepDecibels).rounded()
        return UInt8(min(255, max(0, steps)))
    }

    public static func decode(_ byte: UInt8) -> Double {
        Decibels.clamp(-Double(byte) * stepDecibels)
    }

    public static func encode(_ levels: [Double]) -> Data {
        Data(levels.map(encode))
    }

    public static func decode(_ data: Data) -> [Double] {
        data.map(decode)
    }

    /// A track as one blob: the RMS values, then the peak values.
    public static func encode(_ track: LevelTrack) -> Data {
        encode(track.rms) + encode(track.peak)
    }

    /// The track behind `encode(_:)`, or nil when the blob cannot be one
    /// (odd length: RMS and peak come in pairs).
    public static func decodeTrack(_ data: Data, intervalMilliseconds: Int) -> LevelTrack? {
        guard data.count % 2 == 0 else { return nil }
        let values = decode(data)
        let half = values.count / 2
        return LevelTrack(intervalMilliseconds: intervalMilliseconds,
                          rms: Array(values[..<half]), peak: Array(values[half...]))
    }
}
