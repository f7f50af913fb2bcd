import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import XCTest

/// The desktop's media controls drive the window over the real session bus
/// (MPRIS 2 through `gdbus`, as GNOME Shell's controls and the media keys
/// do): what plays is announced, PlayPause, Previous and Next change what
/// the rows show, and a second running Hark does not take the name.
final class MediaPlayerBusTests: XCTestCase {
    private static let player = "org.mpris.MediaPlayer2.Player"

    func testMediaControlsPlayPauseAndMoveThroughTheMessages() throws {
        try onMainActor {
            try WindowFixture.withMessagesToPlay(["Parking spot", "Dentist"]) { _, window, ids in
                let (older, newer) = (ids[0], ids[1])
                XCTAssertEqual(try Self.bus(["--method", "org.freedesktop.DBus.GetNameOwner", MediaPlayerInfo.busName], to: "org.freedesktop.DBus",
                                            path: "/org/freedesktop/DBus"),
                               "('\(Self.ownUniqueName)',)", "this window serves the media controls")
                XCTAssertEqual(try Self.property("org.mpris.MediaPlayer2", "Identity"), "(<'Hark'>,)")
                XCTAssertEqual(try Self.property(Self.player, "PlaybackStatus"), "(<'Stopped'>,)")
                let signals = BusSignalLog(path: MediaPlayerInfo.objectPath)

                // Nothing loaded: PlayPause plays the newest message, as Space does.
                try Self.call("PlayPause")
                XCTAssertTrue(Self.waitUntil { Self.showsPlaying(window, newer) }, "the newest row shows Pause")
                let metadata = try Self.property(Self.player, "Metadata")
                XCTAssertTrue(metadata.contains("'xesam:title': <'Dentist'>"), metadata)
                XCTAssertTrue(metadata.contains("'xesam:artist': <['You']>"), metadata)
                XCTAssertTrue(metadata.contains("'xesam:album': <'Recordings'>"), metadata)
                XCTAssertTrue(metadata.contains("'mpris:length': <int64 30000000>"), metadata)
                XCTAssertTrue(metadata.contains("'mpris:trackid': <objectpath '\(MediaPlayerInfo.trackID(of: newer))'>"), metadata)
                XCTAssertTrue(Self.waitUntil { signals.heard.contains { $0.contains("'PlaybackStatus': <'Playing'>") } },
                              "PropertiesChanged says it plays: \(signals.heard)")
                XCTAssertTrue(signals.heard.contains { $0.hasPrefix("PropertiesChanged") && $0.contains("'xesam:title': <'Dentist'>") },
                              "and what: \(signals.heard)")

                // Previous and Next move in the history's order, as auto-next does.
                XCTAssertEqual(try Self.property(Self.player, "CanGoNext"), "(<false>,)", "the newest has none after it")
                try Self.call("Previous")
                XCTAssertTrue(Self.waitUntil { Self.showsPlaying(window, older) && !Self.showsPlaying(window, newer) },
                              "the older row plays, the newer one no longer")
                XCTAssertEqual(try Self.property(Self.player, "CanGoNext"), "(<true>,)")
                try Self.call("Next")
                XCTAssertTrue(Self.waitUntil { Self.showsPlaying(window, newer) && !Self.showsPlaying(window, older) })

                XCTAssertFalse(signals.heard.contains { $0.contains("'Stopped'") }, "a message replacing another is no stop: \(signals.heard)")

                // Seeking is announced; a speed asked for is snapped to the app's own.
                XCTAssertEqual(try Self.bus(["--method", "\(Self.player).SetPosition", MediaPlayerInfo.trackID(of: newer), "10000000"]), "()")
                XCTAssertTrue(Self.waitUntil { signals.heard.contains("Seeked (10000000,)") }, "\(signals.heard)")
                XCTAssertEqual(try Self.bus(["--method", "org.freedesktop.DBus.Properties.Set", Self.player, "Rate", "<1.4>"]), "()")
                XCTAssertEqual(window.playback?.rate, 1.5)
                XCTAssertTrue(Self.waitUntil { signals.heard.contains { $0.contains("'Rate': <1.5>") } }, "\(signals.heard)")
                window.playback?.setRate(1)

                // PlayPause again pauses it.
                try Self.call("PlayPause")
                XCTAssertTrue(Self.waitUntil { !Self.showsPlaying(window, newer) }, "the row shows Play again")
                XCTAssertEqual(try Self.property(Self.player, "PlaybackStatus"), "(<'Paused'>,)")
                XCTAssertTrue(Self.waitUntil { signals.heard.contains { $0.contains("'PlaybackStatus': <'Paused'>") } },
                              "\(signals.heard)")
            }
        }
    }

    func testARenameOfThePlayingMessageAndANewMessageAfterItAreAnnounced() throws {
        try onMainActor {
            try WindowFixture.withMessagesToPlay(["Dentist"]) { folder, window, ids in
                let id = ids[0]
                try Self.call("PlayPause")
                XCTAssertTrue(Self.waitUntil { Self.showsPlaying(window, id) })
                XCTAssertEqual(try Self.property(Self.player, "CanGoNext"), "(<false>,)")
                let signals = BusSignalLog(path: MediaPlayerInfo.objectPath)

                // Renamed while it plays: the new title is announced.
                window.rename(id, to: "Dentist on Tuesday")
                XCTAssertTrue(Self.waitUntil { signals.heard.contains { $0.hasPrefix("PropertiesChanged") && $0.contains("'xesam:title': <'Dentist on Tuesday'>") } },
                              "\(signals.heard)")
                XCTAssertTrue(try Self.property(Self.player, "Metadata").contains("'xesam:title': <'Dentist on Tuesday'>"))

                // A message recorded after it by another process (`hark record`): there is a next one now.
                let other = try MessageStore(folder: folder)
                let newer = try other.beginRecording(title: "Groceries")
                try FileManager.default.copyItem(atPath: other.audioPath(of: other.message(id)), toPath: other.audioPath(of: newer))
                try other.finishRecording(newer.id, duration: 30, levels: LevelTrack())
                XCTAssertTrue(Self.waitUntil { signals.heard.contains { $0.hasPrefix("PropertiesChanged") && $0.contains("'CanGoNext': <true>") } },
                              "\(signals.heard)")
                XCTAssertEqual(try Self.property(Self.player, "CanGoNext"), "(<true>,)")
            }
        }
    }

    func testASecondRunningHarkDoesNotTakeTheMediaControls() throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url.appendingPathComponent("store")) { _, window in
                window.present()
                settle(seconds: 0.3)
                let owner = "('\(Self.ownUniqueName)',)"
                XCTAssertEqual(try Self.nameOwner(), owner)
                // Another Hark process, its window open on the same desktop.
                let second = try ChildProcess(harkExecutable, [], environment: [
                    "XDG_DATA_HOME": scratch.path("data"), "XDG_CONFIG_HOME": scratch.path("config"),
                    "XDG_CACHE_HOME": scratch.path("cache"), "HARK_AUDIO_SINK": "fakesink",
                ])
                XCTAssertTrue(Self.waitUntil(seconds: 60) {
                    let queued = (try? Self.bus(["--method", "org.freedesktop.DBus.ListQueuedOwners", MediaPlayerInfo.busName],
                                                to: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")) ?? ""
                    return queued.components(separatedBy: "':").count - 1 == 2 || !second.isRunning
                }, "the second Hark asks for the name too")
                XCTAssertTrue(second.isRunning, second.output)
                XCTAssertEqual(try Self.nameOwner(), owner, "and waits behind this one, which keeps it")
                second.process.terminate()
                XCTAssertEqual(second.waitForExit(seconds: 30), 0, second.output)
            }
        }
    }

    // MARK: The bus, through gdbus

    private static var ownUniqueName: String {
        let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil)
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        return String(cString: g_dbus_connection_get_unique_name(connection))
    }

    @MainActor
    private static func nameOwner() throws -> String {
        try Self.bus(["--method", "org.freedesktop.DBus.GetNameOwner", MediaPlayerInfo.busName], to: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
    }

    @MainActor
    private static func call(_ method: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try Self.bus(["--method", "\(Self.player).\(method)"]), "()", method, file: file, line: line)
    }

    @MainActor
    private static func property(_ interface: String, _ name: String) throws -> String {
        try Self.bus(["--method", "org.freedesktop.DBus.Properties.Get", interface, name])
    }

    /// `gdbus call` to the media player, the window's loop turning meanwhile
    /// (it answers from there); the reply as gdbus prints it.
    @MainActor
    private static func bus(_ arguments: [String], to destination: String = MediaPlayerInfo.busName,
                     path: String = MediaPlayerInfo.objectPath) throws -> String {
        let child = try ChildProcess("/usr/bin/gdbus", ["call", "--session", "--dest", destination, "--object-path", path] + arguments)
        XCTAssertTrue(Self.waitUntil(seconds: 30) { !child.isRunning }, "gdbus answered")
        return child.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Turns the loop until `condition` holds (looking again every 20 ms:
    /// other processes' doings wake no GLib source here).
    @MainActor
    private static func waitUntil(seconds: Double = 15, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            MainLoop.iterate(until: { false }, timeout: 0.02)
        }
        return true
    }

    @MainActor
    private static func showsPlaying(_ window: MainWindow, _ id: String) -> Bool {
        guard let row = window.history?.row(showing: id), let icon = gtk_button_get_icon_name(hark_button(row.playButton)) else { return false }
        return String(cString: icon) == "media-playback-pause-symbolic"
    }
}
