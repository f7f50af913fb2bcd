/// Maps a level in dBFS to a bar height fraction in 0…1 for drawing.
///
/// Levels at or below `floorDecibels` are "no voice" (the seed's -46 dB) and
/// map to 0; `ceilingDecibels` and above map to 1; in between the mapping is
/// linear in decibels, which is how loudness is heard.
public struct DisplayMapping: Sendable, Equatable {
    public var floorDecibels: Double
    public var ceilingDecibels: Double

    public static let standard = DisplayMapping(floorDecibels: -46, ceilingDecibels: 0)

    public init(floorDecibels: Double, ceilingDecibels: Double) {
        precondition(floorDecibels < ceilingDecibels, "the floor must lie below the ceiling")
        self.floorDecibels = floorDecibels
        self.ceilingDecibels = ceilingDecibels
    }

    public func fraction(_ decibels: Double) -> Double {
        let level = Decibels.clamp(decibels)
        if level <= floorDecibels { return 0 }
        if level >= ceilingDecibels { return 1 }
        return (level - floorDecibels) / (ceilingDecibels - floorDecibels)
    }

    public func fractions(_ levels: [Double]) -> [Double] {
        levels.map(fraction)
    }
}
