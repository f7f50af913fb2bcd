import Foundation

/// A clock and calendar that do not move, for tests of what dates read as:
/// Tuesday 1 December 2026, 15:00 UTC.
enum FixedClock {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    static let now = Date(timeIntervalSince1970: 1_796_137_200)
}
