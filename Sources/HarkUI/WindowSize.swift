/// The main window's size as the store's settings keep it between runs:
/// "WIDTH HEIGHT" and " maximized" when it was.
struct WindowSize: Equatable {
    static let settingKey = "window-size"
    /// The window's own minimum (it works from 360 px wide).
    static let smallest = (width: 360, height: 360)
    static let standard = WindowSize(width: 480, height: 640, maximized: false)

    var width: Int
    var height: Int
    var maximized: Bool

    init(width: Int, height: Int, maximized: Bool) {
        self.width = width
        self.height = height
        self.maximized = maximized
    }

    /// Reads a stored value; anything unreadable is the standard size, and a
    /// size below the window's minimum (or absurdly large) is brought in range.
    init(setting: String?) {
        let parts = (setting ?? "").split(separator: " ")
        guard parts.count >= 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            self = Self.standard
            return
        }
        self.width = min(max(width, Self.smallest.width), 16_384)
        self.height = min(max(height, Self.smallest.height), 16_384)
        maximized = parts.count > 2 && parts[2] == "maximized"
    }

    var setting: String { "\(width) \(height)" + (maximized ? " maximized" : "") }
}
