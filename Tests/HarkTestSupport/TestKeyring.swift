import Foundation

/// A real Secret Service for a test: gnome-keyring's secrets component on the
/// test's own session bus (`scripts/run-tests` runs these tests inside a
/// private `dbus-run-session` whose bus starts no service on demand), started
/// unlocked (`--unlock` reads the password from standard input: no prompt, no
/// display) with its keyrings in a scratch folder, and stopped by its pid.
public final class TestKeyring: @unchecked Sendable {
    public let folder: ScratchFolder
    private var daemon: ChildProcess?

    /// Fails unless the session bus is a private one with no keyring on it
    /// and none to start on demand (which would ask for a password on a display).
    public static func checkPrivateBus() throws {
        guard let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else {
            throw KeyringFailed(output: "no session bus: run these tests through scripts/run-tests")
        }
        let names = try ChildProcess.run("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.ListActivatableNames"], seconds: 10).output
        guard !names.contains("org.freedesktop.secrets") else {
            throw KeyringFailed(output: "the session bus would start the user's own keyring: "
                                + "run these tests through scripts/run-tests")
        }
    }

    public init() throws {
        try Self.checkPrivateBus()
        folder = try ScratchFolder()
        try start()
    }

    deinit { stop() }

    /// Starts the daemon on this keyring's files: unlocked (the password on
    /// standard input), or locked, as after a restart with nobody to type it.
    public func start(unlocked: Bool = true) throws {
        guard !Self.secretsOwned else { throw KeyringFailed(output: "another Secret Service is already on the bus") }
        // A daemon stopped a moment ago may leave its control socket behind,
        // and a new one would not bind there: this folder is the tests' own.
        try? FileManager.default.removeItem(atPath: folder.path("runtime") + "/keyring")
        for name in ["home", "data", "runtime"] {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        // G_DEBUG=fatal-warnings is for Hark's code: gnome-keyring warns when
        // an item is stored twice in a row ("already registered") and would die of it.
        let environment = ["G_DEBUG": "", "HOME": folder.path("home"), "XDG_DATA_HOME": folder.path("data"),
                           "XDG_RUNTIME_DIR": folder.path("runtime"), "DISPLAY": "", "WAYLAND_DISPLAY": ""]
        let daemon = try ChildProcess("/usr/bin/gnome-keyring-daemon",
                                      ["--foreground"] + (unlocked ? ["--unlock"] : []) + ["--components=secrets"],
                                      environment: environment, input: unlocked ? "test-keyring-password" : nil)
        self.daemon = daemon
        // For scripts/run-tests to stop it should this test process crash.
        try String(daemon.process.processIdentifier).write(toFile: folder.path("keyring.pid"), atomically: true,
                                                           encoding: .utf8)
        let deadline = Date().addingTimeInterval(20)
        while !Self.secretsOwned {
            guard daemon.isRunning, Date() < deadline else {
                throw KeyringFailed(output: "gnome-keyring-daemon did not start: \(daemon.output)")
            }
            usleep(20_000)
        }
    }

    /// Stops the daemon by its pid (the Secret Service is gone from the bus).
    public func stop() {
        guard let daemon else { return }
        daemon.process.terminate()
        daemon.waitForExit(seconds: 10)
        self.daemon = nil
        let deadline = Date().addingTimeInterval(10)
        while Self.secretsOwned && Date() < deadline { usleep(20_000) }
    }

    /// Whether someone owns the Secret Service's name on the session bus.
    public static var secretsOwned: Bool {
        let answer = try? ChildProcess.run("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.secrets"], seconds: 10)
        return answer?.output.contains("true") == true
    }

    /// Locks the default keyring (as the screen lock or GNOME Passwords' Lock
    /// does): its items stay, their secrets cannot be read until it is unlocked.
    public func lock() throws {
        func call(_ method: String, _ argument: String) throws -> String {
            let (status, output) = try ChildProcess.run("/usr/bin/gdbus", [
                "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
                "--method", "org.freedesktop.Secret.Service." + method, argument], seconds: 10)
            guard status == 0 else { throw KeyringFailed(output: "\(method) failed: \(output)") }
            return output
        }
        // "(objectpath '/org/freedesktop/secrets/collection/login',)"
        let alias = try call("ReadAlias", "default")
        guard let start = alias.firstIndex(of: "'"), let end = alias.lastIndex(of: "'"), start < end else {
            throw KeyringFailed(output: "no default keyring: \(alias)")
        }
        _ = try call("Lock", "[objectpath '\(alias[alias.index(after: start)..<end])']")
    }

    /// What `secret-tool` (libsecret's own command) finds for these attributes, or nil.
    public func lookup(_ attributes: [(String, String)]) -> String? {
        guard let (status, output) = try? ChildProcess.run(
            "/usr/bin/secret-tool", ["lookup"] + attributes.flatMap { [$0.0, $0.1] }, seconds: 10),
            status == 0, !output.isEmpty else { return nil }
        return output
    }
}

public struct KeyringFailed: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "Test keyring: \(output)" }
}
