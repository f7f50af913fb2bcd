import Foundation
import HelperProcesses
import Localization

/// What the installer's `--check` found: every installed file against the
/// hash it was installed with (a truncated library or model, a broken
/// Python). A damaged engine reads as installed by its stamp alone, and then
/// fails every message in a second.
public enum EngineCheck: Equatable, Sendable {
    case intact
    /// These files (relative to the engine's folder) are damaged or missing.
    case damaged([String])
    case notInstalled
    /// The check itself could not run (its reason).
    case unchecked(String)

    /// A sentence for people, with how to repair it.
    public var description: String {
        switch self {
        case .intact: return tr("The transcription engine is intact.")
        case .notInstalled: return TranscriptionError.notInstalled.description
        case .unchecked(let reason): return tr("The transcription engine could not be checked: {reason}", ["reason": reason])
        case .damaged(let files):
            return trn("The transcription engine is damaged ({count} file, {example}): install it again with "
                       + "'hark transcriber enable' or Transcribe Messages… in the window.",
                       "The transcription engine is damaged ({count} files, such as {example}): install it again with "
                       + "'hark transcriber enable' or Transcribe Messages… in the window.",
                       files.count, ["example": files.first ?? ""])
        }
    }

    /// Reads the installer's standard error (its "damaged: PATH" lines) and exit status.
    static func from(exit: Subprocess.Exit, lines: [String]) -> EngineCheck {
        let damaged = lines.compactMap { line -> String? in
            guard let range = line.range(of: "install-transcriber: damaged: ") else { return nil }
            return String(line[range.upperBound...])
        }
        switch exit {
        case .exited(status: 0): return .intact
        case .exited(status: 1): return .notInstalled
        case .exited(status: 2): return .damaged(damaged.isEmpty ? ["?"] : damaged)
        case .exited(let status): return .unchecked(tr("the check ended with status {status}", ["status": String(status)]))
        case .signalled(let signal): return .unchecked(tr("the check was stopped by signal {signal}", ["signal": String(signal)]))
        }
    }
}

extension Engine {
    /// Checks the installed files (a second or two, in the background):
    /// `done` gets what was found, from the main loop.
    @MainActor
    public func check(_ done: @escaping @MainActor (EngineCheck) -> Void) {
        guard FileManager.default.isExecutableFile(atPath: installer) else {
            return done(.unchecked(tr("the installer {path} is missing", ["path": installer])))
        }
        let process: Subprocess
        do {
            process = try Subprocess(arguments: [installer, "--check", folder], pipes: [.silentOutput, .errors])
        } catch {
            return done(.unchecked(error.description))
        }
        // The reading holds itself until the check has ended (a cycle, broken then).
        final class Reading { var reader: LineReader? }
        let reading = Reading()
        var lines: [String] = []
        reading.reader = LineReader(process.errors!, owner: process, longestLine: 64 * 1024) { lines.append($0) } onEnd: { _ in
            process.waitForExit { exit in
                reading.reader = nil
                done(EngineCheck.from(exit: exit, lines: lines))
            }
        }
    }

    /// The same, waited for: for the command line.
    public func checkNow() -> EngineCheck {
        guard FileManager.default.isExecutableFile(atPath: installer) else {
            return .unchecked(tr("the installer {path} is missing", ["path": installer]))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: installer)
        process.arguments = ["--check", folder]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return .unchecked("\(error)") }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let exit: Subprocess.Exit = process.terminationReason == .exit ? .exited(status: process.terminationStatus)
                                                                       : .signalled(process.terminationStatus)
        return EngineCheck.from(exit: exit, lines: String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
