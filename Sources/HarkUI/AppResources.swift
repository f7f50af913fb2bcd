import Foundation
import Identity

/// Finds Hark's files outside the binary: `Resources/` (CSS, UI text) and the
/// icons under `data/`. Installed, they sit beside the binary's prefix
/// (`PREFIX/share/hark`, `PREFIX/share/icons`: see `InstalledLayout`); run
/// from a checkout's build, they are found in the source tree this file was
/// compiled from (never by an installed Hark: a stale checkout would hide a
/// missing file).
public enum AppResources {
    /// The folder holding `style.css`, or nil when none is found.
    public static var resourceDirectory: String? {
        firstExisting([
            ProcessInfo.processInfo.environment["HARK_RESOURCE_DIR"],
            InstalledLayout.prefix.map { "\($0)/share/hark" },
            sourceTree.map { "\($0)/Resources" },
        ], containing: "style.css")
    }

    /// A folder to add to the icon theme's search path when Hark runs from a
    /// checkout (installed icons are found by the theme on its own).
    public static var uninstalledIconDirectory: String? {
        firstExisting([sourceTree.map { "\($0)/data/icons" }], containing: "hicolor")
    }

    /// The checkout root: Sources/HarkUI/AppResources.swift → ../../
    private static var sourceTree: String? {
        InstalledLayout.checkout(fromSourceFile: #filePath, depth: 3)
    }

    private static func firstExisting(_ candidates: [String?], containing entry: String) -> String? {
        candidates.compactMap { $0 }.first {
            FileManager.default.fileExists(atPath: "\($0)/\(entry)")
        }
    }
}
