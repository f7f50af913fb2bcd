import Foundation

/// Finds Hark's files outside the binary: `Resources/` (CSS, UI text) and the
/// icons under `data/`. Installed, they sit beside the binary's prefix
/// (`PREFIX/share/hark`, `PREFIX/share/icons`); run from a checkout, they are
/// found in the source tree this file was compiled from.
public enum AppResources {
    /// The folder holding `style.css`, or nil when none is found.
    public static var resourceDirectory: String? {
        firstExisting([
            ProcessInfo.processInfo.environment["HARK_RESOURCE_DIR"],
            installedPrefix.map { "\($0)/share/hark" },
            "\(sourceTree)/Resources",
        ], containing: "style.css")
    }

    /// A folder to add to the icon theme's search path when Hark runs from a
    /// checkout (installed icons are found by the theme on its own).
    public static var uninstalledIconDirectory: String? {
        firstExisting(["\(sourceTree)/data/icons"], containing: "hicolor")
    }

    private static var installedPrefix: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        else { return nil }
        // PREFIX/bin/hark → PREFIX
        return URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The checkout root: Sources/HarkUI/AppResources.swift → ../../
    private static var sourceTree: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    private static func firstExisting(_ candidates: [String?], containing entry: String) -> String? {
        candidates.compactMap { $0 }.first {
            FileManager.default.fileExists(atPath: "\($0)/\(entry)")
        }
    }
}
