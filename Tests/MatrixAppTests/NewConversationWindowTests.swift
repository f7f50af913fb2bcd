import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import XCTest

/// New Conversation… against a real Synapse: Carol found in the server's
/// directory by part of her name, the direct chat made and opened under her
/// name, the same chat opened again the second time (by her Matrix ID, with
/// Ctrl+N's action), and a Matrix ID no one has said in a sentence.
final class NewConversationWindowTests: SharedServerTestCase {
    override class var users: [String] { ["alice", "carol", "bob"] }

    /// Carol calls herself "Carol Singer" (the name her profile and the directory give).
    @MainActor
    static func nameCarol(_ homeserver: String) throws {
        let carol = MatrixClient(homeserver: homeserver)
        let session = try awaitOnLoop { try await carol.login(user: "carol", password: SharedHomeserver.password) }
        let body = Data(#"{"displayname": "Carol Singer"}"#.utf8)
        let response = try awaitOnLoop {
            try await HTTPSession().send(method: "PUT", url: homeserver + "/_matrix/client/v3/profile/%40carol%3Alocalhost/displayname",
                                         headers: [("Authorization", "Bearer \(session.accessToken)")], body: body,
                                         contentType: "application/json")
        }
        XCTAssertEqual(response.status, 200)
    }

    func testAPersonFoundByNameGetsAChatNamedAfterThemOpenedOnceAndAgain() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            try Self.nameCarol(homeserver)
            try Self.withKeyringAndWindow { store, window in
                let actions = OpaquePointer(window.window)
                XCTAssertEqual(g_action_group_get_action_enabled(actions, "new-conversation"), 0,
                               "signed out, there is no one to talk to (the menu item is hidden)")
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                XCTAssertTrue(waitUntil { g_action_group_get_action_enabled(actions, "new-conversation") != 0 })
                XCTAssertEqual(Actions.accels(try XCTUnwrap(gtk_window_get_application(window.window)), "win.new-conversation"), ["<Control>n"])

                // The sidebar header's "+".
                let plus = try XCTUnwrap(Widget.descendants(of: conversations.layout.sidebarHeader).first {
                    Widget.typeName($0) == "GtkButton"
                        && gtk_actionable_get_action_name(OpaquePointer($0)).map { String(cString: $0) } == "win.new-conversation"
                })
                XCTAssertEqual(Self.accessibleName(plus), "New Conversation")
                hark_test_emit(plus, "clicked")
                let dialog = try XCTUnwrap(conversations.newConversation.dialog)
                settle()
                XCTAssertEqual(gtk_window_get_title(dialog.window).map { String(cString: $0) }, "New Conversation")
                XCTAssertEqual(Self.accessibleName(dialog.entry), "Name or Matrix ID")
                XCTAssertEqual(Self.accessibleName(dialog.list), "People")
                let focus = try XCTUnwrap(gtk_window_get_focus(dialog.window))
                XCTAssertNotEqual(gtk_widget_is_ancestor(focus, dialog.entry), 0, "typing goes into the search at once")

                // Part of her name finds her in the directory; Enter starts the chat.
                gtk_editable_set_text(OpaquePointer(dialog.entry), "sing")
                XCTAssertTrue(waitUntil { Self.rows(of: dialog).map(\.name) == ["Carol Singer, @carol:localhost"] },
                              "\(Self.rows(of: dialog))")
                XCTAssertEqual(Self.rows(of: dialog).first?.title, "Carol Singer")
                XCTAssertEqual(Self.rows(of: dialog).first?.subtitle, "@carol:localhost")
                // ↓ goes from the field to the people; Enter (or a click) on one starts the chat.
                XCTAssertTrue(Self.press(UInt32(GDK_KEY_Down), in: dialog.entry))
                let row = try XCTUnwrap(gtk_window_get_focus(dialog.window))
                XCTAssertEqual(Self.accessibleName(row), "Carol Singer, @carol:localhost")
                gtk_widget_activate(row)
                XCTAssertTrue(waitUntil { !dialog.isOpen }, "the dialog closes once the chat is there")
                let rooms = try store.matrix.rooms()
                XCTAssertEqual(rooms.count, 1)
                let roomID = try XCTUnwrap(rooms.first?.id)
                XCTAssertEqual(window.history?.scope, .room(roomID), "the chat is open")
                XCTAssertEqual(conversations.sidebar.selected, .room(roomID))
                XCTAssertEqual(conversations.sidebar.rowNames, ["Recordings", "Carol Singer"], "listed under her name")
                XCTAssertEqual(adw_window_title_get_title(OpaquePointer(conversations.layout.title)).map { String(cString: $0) },
                               "Carol Singer")
                // Her invitation, synced back, keeps the name.
                XCTAssertTrue(waitUntil { store.matrix.memberName(roomID: roomID, userID: "@carol:localhost") == "Carol Singer" })

                // The second time, by her Matrix ID through Ctrl+N's action: the same chat.
                conversations.show(.recordings)
                XCTAssertNotEqual(gtk_widget_activate_action_variant(Widget.widget(window.window), "win.new-conversation", nil), 0)
                let again = try XCTUnwrap(conversations.newConversation.dialog)
                XCTAssertFalse(again === dialog)
                gtk_editable_set_text(OpaquePointer(again.entry), "@carol:localhost")
                XCTAssertTrue(waitUntil { Self.rows(of: again).first?.title == "Carol Singer" },
                              "a whole ID is offered, named once the directory answers: \(Self.rows(of: again)) \(Self.sentence(of: again))")
                // Enter in the field starts the first offered.
                hark_test_emit(again.entry, "activate")
                XCTAssertTrue(waitUntil { !again.isOpen })
                XCTAssertEqual(window.history?.scope, .room(roomID))
                XCTAssertEqual(try store.matrix.rooms().map(\.id), [roomID], "no second chat")
            }
        }
    }

    func testWhatCannotBeStartedIsSaidInASentence() throws {
        let homeserver = try homeserver
        let server = try XCTUnwrap(server)
        try MainActor.assumeIsolated {
            try Self.withKeyringAndWindow { store, window in
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                conversations.newConversation.openDialog()
                let dialog = try XCTUnwrap(conversations.newConversation.dialog)

                gtk_editable_set_text(OpaquePointer(dialog.entry), "zebra")
                XCTAssertTrue(waitUntil { Self.sentence(of: dialog) == "No one found for “zebra”." }, Self.sentence(of: dialog))
                XCTAssertTrue(Self.rows(of: dialog).isEmpty)

                gtk_editable_set_text(OpaquePointer(dialog.entry), "@alice:localhost")
                XCTAssertTrue(waitUntil { Self.sentence(of: dialog).hasPrefix("“@alice:localhost” is not someone else’s Matrix ID") },
                              Self.sentence(of: dialog))
                XCTAssertTrue(Self.rows(of: dialog).isEmpty, "never a chat with oneself")

                // A whole ID is offered before anyone is asked; no one has this one.
                gtk_editable_set_text(OpaquePointer(dialog.entry), "@nobody:localhost")
                XCTAssertTrue(waitUntil { Self.rows(of: dialog).map(\.title) == ["@nobody:localhost"] })
                hark_test_emit(dialog.entry, "activate")
                XCTAssertTrue(waitUntil { Self.sentence(of: dialog) == "There is no one with the Matrix ID @nobody:localhost." },
                              Self.sentence(of: dialog))
                XCTAssertTrue(dialog.isOpen, "the dialog stays, to correct the ID")
                XCTAssertFalse(try store.matrix.rooms().contains { $0.otherMemberNames.contains("@nobody:localhost") },
                               "no room made for no one")

                // The server gone: the search says so.
                server.stop()
                gtk_editable_set_text(OpaquePointer(dialog.entry), "carol")
                XCTAssertTrue(waitUntil { Self.sentence(of: dialog).hasPrefix("Cannot reach 127.0.0.1") }, Self.sentence(of: dialog))
                try server.start()

                hark_test_emit(dialog.entry, "stop-search")  // Escape
                XCTAssertTrue(waitUntil { !dialog.isOpen })
            }
        }
    }

    /// A window of the test's own, with its own keyring (for the token) and store.
    @MainActor
    static func withKeyringAndWindow(_ body: (MessageStore, MainWindow) throws -> Void) throws {
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        try withWindow(storeIn: folder.url.appendingPathComponent("store"), body)
    }

    // MARK: Reading the dialog as the user sees it

    /// A key pressed in `widget`, as its key controllers hear it; whether one took it.
    @MainActor
    static func press(_ keyval: UInt32, in widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        let controllers = gtk_widget_observe_controllers(widget)!
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        return (0..<g_list_model_get_n_items(controllers)).contains { index in
            guard let item = g_list_model_get_item(controllers, index) else { return false }
            g_object_unref(item)  // the widget keeps it
            guard g_type_check_instance_is_a(item.assumingMemoryBound(to: GTypeInstance.self),
                                             gtk_event_controller_key_get_type()) != 0 else { return false }
            return hark_test_emit_key(item, "key-pressed", keyval, 0, 0) != 0
        }
    }

    @MainActor
    static func accessibleName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        // GTK 4.8 reads a property back only where it differs from what is asked.
        guard let name = hark_accessible_check_string(UnsafeMutableRawPointer(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, "\u{1}")
        else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The sentence under the search field, as a screen reader hears it there (its description).
    @MainActor
    static func sentence(of dialog: NewConversationDialog) -> String {
        guard let text = hark_accessible_check_string(UnsafeMutableRawPointer(dialog.entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                      "\u{1}") else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The people offered: each row's title, subtitle and accessible name.
    @MainActor
    static func rows(of dialog: NewConversationDialog) -> [(title: String, subtitle: String?, name: String?)] {
        Widget.descendants(of: dialog.list).filter { Widget.typeName($0) == "AdwActionRow" }.map { row in
            let title = adw_preferences_row_get_title(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self))
            let subtitle = adw_action_row_get_subtitle(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwActionRow.self))
            return (title.map { String(cString: $0) } ?? "", subtitle.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 },
                    accessibleName(row))
        }
    }
}
