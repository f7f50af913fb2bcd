extension LevelTrack {
    /// The levels of a take that goes on after `first` (which lasted
    /// `firstDuration` seconds) with `second`: `first` cut or stretched to
    /// exactly as many intervals as its audio lasted (the last interval of a
    /// take is often partly heard, or missing), then `second`, so that each
    /// level stays over the time it measured.
    public static func joined(_ first: LevelTrack, lasting firstDuration: Double, then second: LevelTrack) -> LevelTrack {
        let step = Double(first.intervalMilliseconds) / 1000
        let wanted = max(0, Int((firstDuration / step).rounded()))
        var rms = Array(first.rms.prefix(wanted))
        var peak = Array(first.peak.prefix(wanted))
        let filler = (rms: first.rms.last ?? Decibels.floor, peak: first.peak.last ?? Decibels.floor)
        while rms.count < wanted {
            rms.append(filler.rms)
            peak.append(filler.peak)
        }
        return LevelTrack(intervalMilliseconds: first.intervalMilliseconds, rms: rms + second.rms, peak: peak + second.peak)
    }
}
