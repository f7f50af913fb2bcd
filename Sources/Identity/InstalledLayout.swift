import Foundation

/// Where an installed Hark keeps its files, found from the running
/// executable: PREFIX/bin/hark (the command line) or
/// PREFIX/libexec/hark/hark-window (the window) both mean PREFIX, whose
/// share/hark holds the stylesheet and the transcription helper. An
/// executable SwiftPM built (under a `.build` folder) is not installed: its
/// files are in the checkout it was built from.
public enum InstalledLayout {
    /// The prefix an executable at PATH is installed under.
    public static func prefix(ofExecutable path: String) -> String {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        if folder.lastPathComponent == "hark", folder.deletingLastPathComponent().lastPathComponent == "libexec" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.deletingLastPathComponent().path
    }

    /// This process's executable, links resolved.
    public static var executable: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// PREFIX of this process, when it runs installed.
    public static var prefix: String? {
        guard let executable, !isBuiltInCheckout(executable) else { return nil }
        return prefix(ofExecutable: executable)
    }

    /// Whether PATH is an executable SwiftPM built in a checkout.
    public static func isBuiltInCheckout(_ path: String) -> Bool {
        path.contains("/.build/")
    }

    /// The checkout this process was built from, when it was (the folder
    /// holding Package.swift, found from a source file's path).
    public static func checkout(fromSourceFile file: String, depth: Int) -> String? {
        guard let executable, isBuiltInCheckout(executable) else { return nil }
        var folder = URL(fileURLWithPath: file)
        for _ in 0..<depth { folder = folder.deletingLastPathComponent() }
        return folder.path
    }
}
