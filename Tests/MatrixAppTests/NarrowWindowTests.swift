import CAdwaita
import CGtk
import CTestSignals
import Foundation
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// A 480 px window shows one pane: in a room, the sidebar is hidden. What
/// arrives there is said on the room's page: Bob's invitation as a banner
/// whose View goes to it, his voice message in another room on the back
/// button's count and in its name. (An extension of RoomWindowTests: the same
/// homeserver.) The names are read as a screen reader gets them: the
/// accessible properties (GTK's test backend: this harness has no AT-SPI bus).
extension RoomWindowTests {
    /// nil when `widget`'s accessible string `property` holds `expected`, else what it holds.
    @MainActor
    static func accessible(_ widget: UnsafeMutablePointer<GtkWidget>, _ property: GtkAccessibleProperty,
                           is expected: String) -> String? {
        guard let found = hark_accessible_check_string(UnsafeMutableRawPointer(widget), property, expected) else { return nil }
        defer { g_free(found) }
        return String(cString: found)
    }

    @MainActor
    static func accessibleLabel(of widget: UnsafeMutablePointer<GtkWidget>, is expected: String) -> String? {
        accessible(widget, GTK_ACCESSIBLE_PROPERTY_LABEL, is: expected)
    }

    func testANarrowWindowShowsInARoomTheInvitationAndMessagesWaitingInTheHiddenSidebar() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                gtk_window_set_default_size(window.window, 480, 640)
                let layout = window.layout
                let conversations = try Self.signIn(window, homeserver)
                XCTAssertTrue(waitUntil { layout.isFolded }, "480 px, signed in: one pane at a time")
                let session = try XCTUnwrap(conversations.account.session)
                let here = try awaitOnLoop { try await bob.createRoom(name: "Here", invite: [Self.alice]) }
                let there = try awaitOnLoop { try await bob.createRoom(name: "There", invite: [Self.alice]) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(there))??.membership == .invite && (try? store.matrix.room(here)) != nil })
                try awaitOnLoop { try await session.join(here) }
                try awaitOnLoop { try await session.join(there) }
                conversations.show(.room(here))
                layout.showContent()
                XCTAssertTrue(waitUntil { layout.visibleChild == layout.content })
                // (Alice may be in rooms of the class's other tests, with their invitations: same server.)
                let before = conversations.waitingElsewhere
                XCTAssertTrue(gtk_widget_get_visible(layout.backButton) != 0)
                XCTAssertNil(Self.accessibleLabel(of: layout.backButton, is: before.backButtonName))
                XCTAssertTrue(before.backButtonName.hasPrefix("Back to Rooms"), "the back button has a name")

                // Bob invites Alice: the room's page says so, and View goes to the invitation.
                let party = try awaitOnLoop { try await bob.createRoom(name: "Tom & <i>Jerry</i>", invite: [Self.alice]) }
                let banner = conversations.invitationBanner
                XCTAssertTrue(waitUntil { banner.isShown && banner.text == "Invitation to “Tom & <i>Jerry</i>” from @bob:localhost" },
                              "\(banner.text)")
                XCTAssertNil(Self.accessibleLabel(of: banner.button, is: "View invitation to Tom & <i>Jerry</i>"))
                XCTAssertEqual(conversations.waitingElsewhere.invitations.map(\.id).first, party, "the newest first")
                let invited = before.count + 1
                XCTAssertEqual(gtk_label_get_text(hark_label(layout.backBadge)).map { String(cString: $0) }, "\(invited)")
                XCTAssertTrue(gtk_widget_get_visible(layout.backBadge) != 0)

                // Bob's voice message in the other room raises the back button's count and says it in its name.
                _ = try Self.sendVoice(from: bob, to: there, path: voice)
                XCTAssertTrue(waitUntil { (try? store.matrix.room(there))??.unreadCount == 1 })
                XCTAssertTrue(waitUntil {
                    gtk_label_get_text(hark_label(layout.backBadge)).map { String(cString: $0) } == "\(invited + 1)"
                }, "one more on the back button")
                let waiting = conversations.waitingElsewhere
                XCTAssertEqual(waiting.unread, before.unread + 1)
                XCTAssertTrue(waiting.backButtonName.hasPrefix("Back to Rooms, \(waiting.unread) unread, "), waiting.backButtonName)
                XCTAssertNil(Self.accessibleLabel(of: layout.backButton, is: waiting.backButtonName))
                XCTAssertEqual(layout.visibleChild, layout.content, "nothing took the room away")

                // Dismissed, the banner goes; the invitation still waits, counted.
                hark_test_emit(banner.closeButton, "clicked")
                XCTAssertFalse(banner.isShown)
                XCTAssertEqual(gtk_label_get_text(hark_label(layout.backBadge)).map { String(cString: $0) }, "\(invited + 1)")
                conversations.dismissedInvitations = []
                conversations.showWhatWaits()
                XCTAssertTrue(banner.isShown)

                // View: the sidebar, on the invitation.
                hark_test_emit(banner.button, "clicked")
                XCTAssertTrue(layout.isShowingSidebarOnly)
                XCTAssertTrue(conversations.sidebar.rowNames.contains("Tom & <i>Jerry</i>, Invitation from @bob:localhost"))

                // Accepted: no banner; the room's empty page names it as written, never as markup.
                try awaitOnLoop { try await session.join(party) }
                conversations.show(.room(party))
                layout.showContent()
                XCTAssertTrue(waitUntil { !banner.isShown })
                let page = try XCTUnwrap(window.emptyStatePage)
                let shown = Widget.descendants(of: page).filter { Widget.typeName($0) == "GtkLabel" }
                    .compactMap { gtk_label_get_text(hark_label($0)).map { String(cString: $0) } }
                XCTAssertTrue(shown.contains("Record a message with the button below: it is sent to Tom & <i>Jerry</i>."), "\(shown)")

                // Wide, the sidebar shows it all itself: no banner, no back button.
                gtk_window_set_default_size(window.window, 900, 640)
                XCTAssertTrue(waitUntil { !layout.isFolded })
                XCTAssertFalse(banner.isShown)
                XCTAssertTrue(gtk_widget_get_visible(layout.backButton) == 0)
            }
        }
    }
}
