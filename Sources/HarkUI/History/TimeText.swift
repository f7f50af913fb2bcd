/// "1:05" for 65.3 seconds: how durations and positions are shown.
enum TimeText {
    static func clock(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.isFinite ? seconds.rounded(.down) : 0))
        let minutes = whole / 60, rest = whole % 60
        return "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
