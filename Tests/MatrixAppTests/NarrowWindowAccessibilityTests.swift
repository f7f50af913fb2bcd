import Foundation
import HarkTestSupport
import XCTest

/// The narrow window as a screen reader user meets it: Hark as its own
/// process, signed in from the command line, read through AT-SPI
/// (scripts/atspi-probe). Carol is new to the class's homeserver, so what
/// waits for her is this test's alone. (An extension of RoomWindowTests.)
extension RoomWindowTests {
    func testThroughAtSpiANarrowWindowNamesTheInvitationAndTheUnreadCount() throws {
        let homeserver = try homeserver
        let server = try XCTUnwrap(Self.server)
        try server.register("carol", password: Self.password)
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        let accessibility = try AccessibilityBus()
        defer { accessibility.stop() }
        // Hark's own data; GTK speaks AT-SPI (this phase's tests use GTK's test backend).
        let environment = ["XDG_DATA_HOME": folder.path("data"), "GTK_A11Y": "atspi"]
        let login = try ChildProcess(harkExecutable, ["account", "login", "--homeserver", homeserver, "--user", "carol"],
                                     environment: environment, input: Self.password)
        XCTAssertEqual(login.waitForExit(seconds: 120), 0, login.output)

        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            let there = try awaitOnLoop { try await bob.createRoom(name: "There", invite: ["@carol:localhost"]) }
            XCTAssertEqual(try ChildProcess.run(harkExecutable, ["sync", "--once"], environment: environment, seconds: 120).status, 0)
            let join = try ChildProcess.run(harkExecutable, ["join", there], environment: environment, seconds: 120)
            XCTAssertEqual(join.status, 0, join.output)
            _ = try Self.sendVoice(from: bob, to: there, path: voice)
            _ = try awaitOnLoop { try await bob.createRoom(name: "Tom & Jerry", invite: ["@carol:localhost"]) }
        }

        // The window at its default 480 px: one pane, the recordings.
        let app = try ChildProcess(harkExecutable, [], environment: environment)
        defer { app.process.terminate() }
        let expected = ["Back to Rooms, 1 unread, 1 invitation", "View invitation to Tom & Jerry"]
        var buttons: [String] = []
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline, !Set(expected).isSubset(of: buttons) {
            buttons = try Self.probe([]).first { $0.hasPrefix("{\"buttons\"") }
                .flatMap { try? JSONDecoder().decode([String: [String]].self, from: Data($0.utf8))["buttons"] } ?? []
            usleep(500_000)
        }
        XCTAssertTrue(Set(expected).isSubset(of: buttons), "\(buttons)\n\(app.output)")
        XCTAssertTrue(try Self.probe(["--text", "Invitation to “Tom & Jerry” from @bob:localhost"]).contains("{\"found\": true}"),
                      "the banner's sentence is on the page a screen reader reads")
        XCTAssertEqual(warningLines(in: app.output), [])
    }

    /// scripts/atspi-probe's JSON lines.
    static func probe(_ arguments: [String]) throws -> [String] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/atspi-probe").path
        let (status, output) = try ChildProcess.run(script, arguments, seconds: 90)
        XCTAssertEqual(status, 0, output)
        return output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{") }
    }
}

/// An accessibility bus on the test's private session bus, which starts no
/// service on demand: at-spi's bus launcher, stopped by its pid with the bus
/// it started.
final class AccessibilityBus {
    private var launcher: ChildProcess?

    init() throws {
        let launcher = try ChildProcess("/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"], environment: ["G_DEBUG": ""])
        self.launcher = launcher
        let deadline = Date().addingTimeInterval(30)
        while !Self.owned {
            guard launcher.isRunning, Date() < deadline else {
                throw AccessibilityBusFailed(output: launcher.output)
            }
            usleep(50_000)
        }
    }

    static var owned: Bool {
        let answer = try? ChildProcess.run("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.NameHasOwner", "org.a11y.Bus"], seconds: 10)
        return answer?.output.contains("true") == true
    }

    func stop() {
        guard let launcher else { return }
        let pid = launcher.process.processIdentifier
        let children = Self.children(of: pid)
        launcher.process.terminate()
        launcher.waitForExit(seconds: 10)
        for child in children { kill(child, SIGTERM) }
        self.launcher = nil
    }

    /// The processes whose parent is `pid` (the launcher's bus daemon).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1 else { return false }
            return Int32(fields[1]) == pid  // "pid (name) state ppid …"
        }
    }
}

struct AccessibilityBusFailed: Error, CustomStringConvertible {
    let output: String
    var description: String { "at-spi-bus-launcher did not start: \(output)" }
}
