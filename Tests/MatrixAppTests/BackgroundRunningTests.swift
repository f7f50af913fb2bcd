import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import XCTest

/// Running in the Background: the window closed, Hark still receives Bob's
/// voice message into the store and says so through the desktop's
/// notification server (a real one on the test's session bus), whose
/// buttons mark the room read (a receipt Bob's client gets) and play the
/// message with the window still hidden, and whose click opens the window at
/// the room. The preference writes the autostart entry, and turning it off or
/// signing out removes it.
final class BackgroundRunningTests: SharedServerTestCase {
    func testClosedToTheBackgroundHarkReceivesNotifiesAndTheNotificationsButtonsWork() throws {
        let homeserver = try homeserver
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        try MainActor.assumeIsolated {
            PlaybackController.audioSink = "fakesink sync=true"  // no sound card here
            let server = try NotificationServer()
            defer { server.stop() }
            let bob = try RoomWindowTests.bob(homeserver)
            try NewConversationWindowTests.withKeyringAndWindow { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                XCTAssertNil(try awaitOnLoop {
                    await conversations.account.signIn(server: homeserver, user: "alice", password: SharedHomeserver.password)
                })
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Evenings", invite: [RoomWindowTests.alice]) }
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains { $0.hasPrefix("Evenings, Invitation") } },
                              "\(conversations.sidebar.rowNames)")
                let session = try XCTUnwrap(conversations.account.session)
                try awaitOnLoop { try await session.join(roomID) }

                // Turned on (the main menu's check item): the autostart entry, its owner's alone.
                let actions = OpaquePointer(window.window)
                let autostart = AutostartEntry().path
                XCTAssertFalse(FileManager.default.fileExists(atPath: autostart.path), "off by default")
                g_action_group_change_action_state(actions, MainWindow.runInBackgroundAction, g_variant_new_boolean(1))
                let permissions = try FileManager.default.attributesOfItem(atPath: autostart.path)[.posixPermissions] as? NSNumber
                XCTAssertEqual(permissions?.intValue, 0o600)
                let entry = try String(contentsOf: autostart, encoding: .utf8)
                XCTAssertTrue(entry.contains("\nExec=") && entry.contains(" --background\n"), entry)
                XCTAssertTrue(entry.hasPrefix("[Desktop Entry]\nType=Application\n"), entry)

                // The window closed: hidden, still the application's.
                gtk_window_close(window.window)
                settle()
                XCTAssertEqual(gtk_widget_get_visible(Widget.widget(window.window)), 0, "hidden")
                let application = try XCTUnwrap(gtk_window_get_application(window.window))
                XCTAssertEqual(g_list_length(gtk_application_get_windows(application)), 1, "the application holds on to it")

                // Bob's voice message: in the store, and on the desktop as a notification with its buttons.
                _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                XCTAssertTrue(waitUntil { server.shown.count == 1 }, "\(server.shown)")
                let shown = try XCTUnwrap(server.shown.first)
                XCTAssertEqual(shown.summary, "bob")
                XCTAssertEqual(shown.body, "Voice message in Evenings · 0:04")
                let received = try XCTUnwrap(try store.shownIDs(in: .room(roomID)).first)
                XCTAssertEqual(try store.message(received).origin, .received)
                XCTAssertTrue(waitUntil { (try? store.message(received).state) == .ready }, "downloaded")
                XCTAssertEqual(try store.matrix.room(roomID)?.unreadCount, 1)
                XCTAssertEqual(shown.actions.count, 6, "\(shown.actions)")

                // Mark as Read: read here, and Bob's client gets Alice's receipt.
                server.invoke(try XCTUnwrap(shown.key(of: "Mark as Read")), on: shown.id)
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID)?.unreadCount) == 0 })
                XCTAssertTrue(try Self.bobHasReceipt(bob, homeserver, roomID))

                // Another message, its notification's Play: it plays (once downloaded), the window still hidden.
                _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                XCTAssertTrue(waitUntil { server.shown.count == 2 }, "\(server.shown)")
                let second = server.shown[1]
                let playing = try XCTUnwrap(try store.shownIDs(in: .room(roomID)).first { $0 != received })
                server.invoke(try XCTUnwrap(second.key(of: "Play")), on: second.id)
                XCTAssertTrue(waitUntil { window.playback?.currentID == playing && window.playback?.isPlaying == true },
                              "\(String(describing: try? store.message(playing)))")
                XCTAssertEqual(gtk_widget_get_visible(Widget.widget(window.window)), 0, "played where Hark is, not shown")
                XCTAssertFalse(try store.message(playing).unread, "heard")
                window.playback?.stop()

                // A third, and a click on its notification: the window opens at the room.
                _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                XCTAssertTrue(waitUntil { server.shown.count == 3 }, "\(server.shown)")
                server.invoke("default", on: server.shown[2].id)
                XCTAssertTrue(waitUntil { gtk_widget_get_visible(Widget.widget(window.window)) != 0 }, "shown again")
                XCTAssertEqual(window.history?.scope, .room(roomID))
                XCTAssertEqual(window.history?.count, 3)
                XCTAssertIdentical(window.conversations, conversations, "the same session, not a second one")

                // Turned off: no autostart; on again, then signed out: none either.
                g_action_group_change_action_state(actions, MainWindow.runInBackgroundAction, g_variant_new_boolean(0))
                XCTAssertFalse(FileManager.default.fileExists(atPath: autostart.path))
                XCTAssertEqual(store.setting(MainWindow.runInBackgroundSetting), "off")
                g_action_group_change_action_state(actions, MainWindow.runInBackgroundAction, g_variant_new_boolean(1))
                XCTAssertTrue(FileManager.default.fileExists(atPath: autostart.path))
                XCTAssertNil(try awaitOnLoop { await conversations.account.signOut() })
                XCTAssertFalse(FileManager.default.fileExists(atPath: autostart.path), "signed out: nothing to start for")
            }
        }
    }

    /// The application's account (as HarkApplication holds it) goes on
    /// syncing after the window showing it is gone: Bob's message lands in
    /// the store with no window at all.
    func testTheApplicationsAccountReceivesWithNoWindow() throws {
        let homeserver = try homeserver
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        try MainActor.assumeIsolated {
            XCTAssertEqual(gtk_init_check(), 1)
            adw_init()
            MainLoop.bridgeSwiftConcurrency()
            let store = try MessageStore(folder: folder.url.appendingPathComponent("store"))
            let app = HarkApplication(applicationID: "io.github.hark.Hark.MatrixTests\(Int.random(in: 0..<1_000_000))",
                                      flags: G_APPLICATION_NON_UNIQUE)
            _ = try withGError {
                g_application_register(UnsafeMutableRawPointer(app.gtkApplication).assumingMemoryBound(to: GApplication.self), nil, $0)
            }
            let account = AccountModel(store: store)
            defer { account.stop() }
            let window = MainWindow(application: app.gtkApplication, store: store, account: account)
            XCTAssertIdentical(window.conversations?.account, account)
            XCTAssertNil(try awaitOnLoop { await account.signIn(server: homeserver, user: "alice", password: SharedHomeserver.password) })
            let bob = try RoomWindowTests.bob(homeserver)
            let roomID = try awaitOnLoop { try await bob.createRoom(name: "Windowless", invite: [RoomWindowTests.alice]) }
            let session = try XCTUnwrap(account.session)
            XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID)) != nil }, "the invitation synced")
            try awaitOnLoop { try await session.join(roomID) }

            gtk_window_destroy(window.window)
            settle()
            XCTAssertEqual(g_list_length(gtk_application_get_windows(app.gtkApplication)), 0, "no window left")
            _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
            XCTAssertTrue(waitUntil { ((try? store.shownIDs(in: .room(roomID))) ?? []).count == 1 }, "received with no window")
            XCTAssertIdentical(account.session, session, "the same session, still running")
        }
    }

    /// Whether Bob's client hears, in a sync from the start, Alice's read receipt in the room.
    @MainActor
    static func bobHasReceipt(_ bob: MatrixClient, _ homeserver: String, _ roomID: String) throws -> Bool {
        let token = try XCTUnwrap(bob.session?.accessToken)
        for _ in 0..<20 {
            let response = try awaitOnLoop {
                try await HTTPSession().send(method: "GET", url: homeserver + "/_matrix/client/v3/sync?timeout=0",
                                             headers: [("Authorization", "Bearer \(token)")])
            }
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            let room = ((object?["rooms"] as? [String: Any])?["join"] as? [String: Any])?[roomID] as? [String: Any]
            let events = (room?["ephemeral"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
            let receipts = events.filter { $0["type"] as? String == "m.receipt" }
            if receipts.contains(where: { "\($0["content"] ?? "")".contains(RoomWindowTests.alice) }) { return true }
            settle(seconds: 0.5)
        }
        return false
    }
}
