/// How durations and positions are shown and said.
enum TimeText {
    /// "1:05" for 65.3 seconds.
    static func clock(_ seconds: Double) -> String {
        let whole = wholeSeconds(seconds)
        let minutes = whole / 60, rest = whole % 60
        return "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// "1 minute 5 seconds" for 65.3 seconds: for sentences and screen readers.
    static func spoken(_ seconds: Double) -> String {
        let whole = wholeSeconds(seconds)
        let minutes = whole / 60, rest = whole % 60
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)" + (count == 1 ? "" : "s") }
        if minutes == 0 { return unit(rest, "second") }
        return rest == 0 ? unit(minutes, "minute") : unit(minutes, "minute") + " " + unit(rest, "second")
    }

    private static func wholeSeconds(_ seconds: Double) -> Int {
        max(0, Int(seconds.isFinite ? seconds.rounded(.down) : 0))
    }
}
