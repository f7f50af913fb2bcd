import Foundation
import Identity
import Localization

/// Where the transcription engine lives and how it is started: the virtual
/// environment `install-transcriber` makes (under the user's data folder, or
/// `HARK_TRANSCRIBER_DIR`), the helper program and the installer (installed
/// in `PREFIX/share/hark`, or in the checkout's `Resources/` and `scripts/`).
public struct Engine: Sendable, Equatable {
    /// The virtual environment.
    public var folder: String
    /// `transcriber.py`.
    public var helperScript: String
    /// `install-transcriber`.
    public var installer: String

    public init(folder: String, helperScript: String, installer: String) {
        self.folder = folder
        self.helperScript = helperScript
        self.installer = installer
    }

    /// The engine as this Hark finds it.
    public static var standard: Engine {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/share")
        let folder = environment["HARK_TRANSCRIBER_DIR"] ?? data + "/hark/transcriber"
        let shared = InstalledLayout.prefix.map { $0 + "/share/hark" }
        let sourceTree = InstalledLayout.checkout(fromSourceFile: #filePath, depth: 3)
        return Engine(
            folder: folder,
            helperScript: firstExisting([environment["HARK_RESOURCE_DIR"], shared, sourceTree.map { $0 + "/Resources" }],
                                        named: "transcriber.py"),
            installer: firstExisting([shared, sourceTree.map { $0 + "/scripts" }], named: "install-transcriber"))
    }

    /// The engine's Python.
    public var python: String { folder + "/bin/python" }

    /// Whether the engine was installed completely (its installer's stamp is
    /// written last) and not found damaged since. Cheap: file checks, no
    /// Python started.
    public var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            && FileManager.default.fileExists(atPath: folder + "/hark-requirements.sha256")
            && FileManager.default.fileExists(atPath: helperScript)
            && damagedFiles == nil
    }

    private var damageMark: String { folder + "/hark-damaged" }

    /// The files a check found damaged, until the installer repaired them
    /// (it removes the mark); nil when none was found.
    public var damagedFiles: [String]? {
        guard let text = try? String(contentsOfFile: damageMark, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").map(String.init)
    }

    /// Remembers what a check found damaged: the engine reads as not
    /// installed (so installing it again is offered) until repaired.
    public func markDamaged(_ files: [String]) {
        try? files.joined(separator: "\n").write(toFile: damageMark, atomically: true, encoding: .utf8)
    }

    /// Whether the multilingual model is installed too (its stamp is written
    /// last, after its hash was checked).
    public var isMultilingualInstalled: Bool {
        FileManager.default.fileExists(atPath: folder + "/whisper-base/hark-requirements.sha256")
    }

    /// Whether messages in `language` can be transcribed now.
    public func isReady(for language: TranscriptionLanguage) -> Bool {
        isInstalled && (!language.needsMultilingualModel || isMultilingualInstalled)
    }

    /// The helper's command line: the engine's Python at the lowest
    /// priority there is, Linux's idle class (`chrt --idle`: it runs only on
    /// a core nothing else wants, so the window's frames and a recording
    /// never wait for it; a niced process still took its share and made
    /// frames 80 ms late on two cores), else `nice`; `language`: the model
    /// it loads as it starts (the others when first asked for).
    public func helperArguments(language: TranscriptionLanguage = .english) -> [String] {
        func tool(_ name: String) -> String? {
            ["/usr/bin/" + name, "/bin/" + name].first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        let lowPriority = tool("chrt").map { [$0, "--idle", "0"] } ?? tool("nice").map { [$0, "-n", "10"] } ?? []
        return lowPriority + [python, helperScript, "--language", language.setting]
    }

    /// The installer's command line.
    public func installerArguments(multilingual: Bool) -> [String] {
        [installer] + (multilingual ? ["--multilingual"] : []) + [folder]
    }

    /// Installs the engine (blocking: minutes the first time, under a second
    /// after), its progress on standard error; `multilingual`: the
    /// multilingual model too. For the command line; the window runs it in
    /// the background (EngineInstallation).
    public func install(multilingual: Bool = false) throws(TranscriptionError) {
        guard FileManager.default.isExecutableFile(atPath: installer) else {
            throw .notInstallable(tr("the installer {path} is missing", ["path": installer]))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: installer)
        process.arguments = Array(installerArguments(multilingual: multilingual).dropFirst())
        do { try process.run() } catch { throw .notInstallable(tr("{path} could not be run: {reason}", ["path": installer, "reason": "\(error)"])) }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .notInstallable(tr("the engine could not be installed (no network, or no disk space?); try again"))
        }
    }

    private static func firstExisting(_ folders: [String?], named name: String) -> String {
        let candidates = folders.compactMap { $0 }.map { $0 + "/" + name }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.last ?? name
    }
}

public enum TranscriptionError: Error, Equatable, Sendable, CustomStringConvertible {
    case notInstalled
    case notInstallable(String)
    case helper(String)

    public var description: String {
        switch self {
        case .notInstalled:
            return tr("The transcription engine is not installed: run 'hark transcriber enable' first.")
        case .notInstallable(let reason): return tr("Transcription could not be set up: {reason}.", ["reason": reason])
        case .helper(let reason): return tr("The transcriber failed: {reason}.", ["reason": reason])
        }
    }
}
