import Foundation

/// A program started by a test, its output collected in a file (a pipe could
/// fill up and stall a chatty child), stopped when the test is done with it.
/// It runs in the temporary folder, never in the checkout: whatever it writes
/// to a relative path (a file chooser's default folder, say) lands there.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    private let outputURL: URL
    private let outputHandle: FileHandle

    /// `input`, when given, is written to the child's standard input, which is then closed.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                input: String? = nil) throws {
        outputURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("hark-test-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        outputHandle = output
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = output
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        try process.run()
        if let inputPipe, let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        Self.register(self)
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [Weak] = []
    private struct Weak { weak var child: ChildProcess? }

    private static func register(_ child: ChildProcess) {
        registryLock.lock()
        defer { registryLock.unlock() }
        registry = registry.filter { $0.child != nil } + [Weak(child: child)]
    }

    /// The children started from `executable` that the test still holds:
    /// whose output explains a failure.
    public static func held(running executable: String) -> [ChildProcess] {
        registryLock.lock()
        defer { registryLock.unlock() }
        return registry.compactMap(\.child).filter { $0.process.executableURL?.path == executable }
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? outputHandle.close()
        try? FileManager.default.removeItem(at: outputURL)
    }

    /// Everything the child wrote to stdout and stderr so far.
    public var output: String {
        (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    public var isRunning: Bool { process.isRunning }

    /// Waits up to `seconds` for the child to exit; its status, or nil if it
    /// is still running.
    @discardableResult
    public func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline {
            usleep(20_000)
        }
        if process.isRunning { return nil }
        return process.terminationStatus
    }

    /// Runs a program to completion (killing it after `seconds`) and returns
    /// its status and combined output.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String] = [:],
                           seconds: Double = 30) throws -> (status: Int32?, output: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = child.waitForExit(seconds: seconds)
        return (status, child.output)
    }
}

/// The `hark` binary SwiftPM built next to the test bundle, or the one
/// `HARK_EXECUTABLE` names (the benchmark measures the release build).
public var harkExecutable: String {
    if let chosen = ProcessInfo.processInfo.environment["HARK_EXECUTABLE"], !chosen.isEmpty { return chosen }
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return testBinary.deletingLastPathComponent().appendingPathComponent("hark").path
}

/// Lines of GLib/GTK logging that say something went wrong.
public func warningLines(in output: String) -> [String] {
    output.split(separator: "\n").map(String.init).filter {
        $0.contains("-WARNING **") || $0.contains("-CRITICAL **") || $0.contains("WARNING:")
            || $0.contains("CRITICAL:") || $0.contains("-ERROR **")
    }
}
