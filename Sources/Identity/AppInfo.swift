/// Names and numbers that identify Hark to the desktop and to users.
public enum AppInfo {
    public static let id = "io.github.hark.Hark"
    public static let name = "Hark"
    public static let version = "0.1.0"
    public static let developer = "The Hark developers"
    public static let website = "https://github.com/hark-voice/hark"
    public static let issues = "https://github.com/hark-voice/hark/issues"
}
