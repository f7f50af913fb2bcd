import Foundation
import HelperProcesses
import Identity

/// Where the encryption engine lives: the virtual environment
/// `install-crypto-engine` makes (under the user's data folder, or
/// `HARK_CRYPTO_ENGINE_DIR`), and the helper program (installed in
/// `PREFIX/share/hark`, or in the checkout's `Resources/`).
public struct CryptoEngineFiles: Sendable, Equatable {
    /// The virtual environment.
    public var folder: String
    /// `crypto-engine.py`: `HARK_RESOURCE_DIR`'s, the installed one, or the checkout's.
    public var helperScript = Self.helper

    public init(folder: String) {
        self.folder = folder
    }

    /// The engine as this Hark finds it.
    public static var standard: CryptoEngineFiles {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/share")
        return CryptoEngineFiles(folder: environment["HARK_CRYPTO_ENGINE_DIR"] ?? data + "/hark/crypto-engine")
    }

    private static var helper: String {
        let places = [ProcessInfo.processInfo.environment["HARK_RESOURCE_DIR"],
                      InstalledLayout.prefix.map { $0 + "/share/hark" },
                      InstalledLayout.checkout(fromSourceFile: #filePath, depth: 3).map { $0 + "/Resources" }]
            .compactMap { $0.map { $0 + "/crypto-engine.py" } }
        return places.first { FileManager.default.fileExists(atPath: $0) } ?? places.last ?? "crypto-engine.py"
    }

    /// The engine's Python.
    public var python: String { folder + "/bin/python" }

    /// Whether the engine was installed completely (the installer's stamp is
    /// written last) and the helper is there. Cheap: no Python started.
    public var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            && FileManager.default.fileExists(atPath: folder + "/hark-requirements.sha256")
            && FileManager.default.fileExists(atPath: helperScript)
    }
}

extension CryptoEngineFiles {
    /// `install-crypto-engine`: beside the helper in `PREFIX/share/hark`, or
    /// in the checkout's `scripts/`.
    public var installer: String {
        let places = [InstalledLayout.prefix.map { $0 + "/share/hark" },
                      InstalledLayout.checkout(fromSourceFile: #filePath, depth: 3).map { $0 + "/scripts" }]
            .compactMap { $0.map { $0 + "/install-crypto-engine" } }
        return places.first { FileManager.default.isExecutableFile(atPath: $0) } ?? places.last ?? "install-crypto-engine"
    }

    /// The installer started in the background for this folder: its progress
    /// and outcome come on GLib's main loop (the window's button and
    /// `hark encryption install` alike). Throws when it cannot be started.
    @MainActor
    public func startInstall() throws(InstallStartFailure) -> EngineInstallation {
        try EngineInstallation(arguments: [installer, folder])
    }
}
