import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Signing in and out from the window, against a real Synapse and a real
/// gnome-keyring: the dialog's spinner and sentences, the token in the
/// keyring only, the session restored at the next start, Sign Out, and a
/// token the server revoked.
final class AccountWindowTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?
    static let password = SharedHomeserver.password
    static let alice = "@alice:localhost"

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    var homeserver: String {
        get throws {
            guard let server = Self.server else { throw SynapseFailed(output: "no homeserver (see the log above)") }
            return server.url
        }
    }

    @MainActor
    static func fill(_ dialog: AccountDialog, server: String, user: String, password: String) {
        gtk_editable_set_text(OpaquePointer(dialog.serverRow), server)
        gtk_editable_set_text(OpaquePointer(dialog.userRow), user)
        gtk_editable_set_text(OpaquePointer(dialog.passwordRow), password)
    }

    /// Presses Sign In; the dialog is busy at once (the answer is awaited on
    /// GLib's loop, the window is not frozen), then shows what came of it.
    @MainActor
    static func pressSignIn(_ dialog: AccountDialog, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(gtk_widget_get_sensitive(dialog.signInButton), 0, file: file, line: line)
        hark_test_emit(dialog.signInButton, "clicked")
        XCTAssertTrue(dialog.isBusy, "the press returned before the server answered", file: file, line: line)
        XCTAssertNotEqual(gtk_widget_get_visible(dialog.spinner), 0, file: file, line: line)
        XCTAssertNotEqual(gtk_spinner_get_spinning(OpaquePointer(dialog.spinner)), 0, file: file, line: line)
        XCTAssertEqual(gtk_widget_get_sensitive(dialog.signInButton), 0, "not pressed twice", file: file, line: line)
        XCTAssertTrue(waitUntil { !dialog.isBusy }, file: file, line: line)
        if dialog.isOpen { XCTAssertEqual(gtk_widget_get_visible(dialog.spinner), 0, file: file, line: line) }
    }

    func testSigningInShowsEachProblemInTheDialogThenKeepsTheTokenInTheKeyringOnly() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            try withWindow(storeIn: folder.url) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                g_action_group_activate_action(OpaquePointer(window.window), "matrix-account", nil)
                let dialog = try XCTUnwrap(conversations.accountDialog)

                Self.fill(dialog, server: "http://127.0.0.1:1", user: "alice", password: "x")
                Self.pressSignIn(dialog)
                XCTAssertTrue(dialog.shownError?.hasPrefix("Cannot reach 127.0.0.1:1: ") == true, "\(dialog.shownError ?? "")")

                Self.fill(dialog, server: homeserver, user: "alice", password: "wrong")
                Self.pressSignIn(dialog)
                XCTAssertEqual(dialog.shownError, "The user name or password is wrong.")
                XCTAssertEqual(conversations.account.state, .signedOut)
                XCTAssertFalse(window.layout.showsSidebar)
                XCTAssertNil(store.matrix.matrixAccount())

                Self.fill(dialog, server: homeserver, user: "alice", password: Self.password)
                Self.pressSignIn(dialog)
                XCTAssertNil(dialog.shownError)
                XCTAssertEqual(conversations.account.state, .signedIn(userID: Self.alice))
                settle()
                XCTAssertNil(conversations.accountDialog, "signed in, the dialog closed")
                XCTAssertTrue(window.layout.showsSidebar)
                // (Alice's rooms from the class's other tests may follow: the same server.)
                XCTAssertEqual(conversations.sidebar.rowNames.first, "Recordings")

                let token = try XCTUnwrap(conversations.account.session?.client.session?.accessToken)
                let kept = try awaitOnLoop {
                    try await SecretStore().token(for: Account(userID: Self.alice, homeserver: homeserver))
                }
                XCTAssertEqual(kept, token, "the token is in the keyring")
                XCTAssertFalse(anyFile(under: folder.url, contains: token), "and in no file of the store")
            }

            // The next start: restored from the keyring, signed in at once.
            try withWindow(storeIn: folder.url) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                XCTAssertEqual(conversations.account.state, .restoring)
                conversations.restore()
                XCTAssertTrue(waitUntil { conversations.account.isSignedIn })
                XCTAssertTrue(window.layout.showsSidebar)

                // Sign Out, from the dialog: the keyring forgets the token, the window its rooms.
                conversations.openAccountDialog()
                let dialog = try XCTUnwrap(conversations.accountDialog)
                XCTAssertTrue(waitUntil { gtk_widget_get_mapped(UnsafeMutableRawPointer(dialog.window).assumingMemoryBound(to: GtkWidget.self)) != 0 })
                XCTAssertNotEqual(gtk_window_get_focus(dialog.window), dialog.signOutButton,
                                  "the focus is not on the destructive Sign Out, which Enter or Space would press")
                hark_test_emit(dialog.signOutButton, "clicked")
                XCTAssertTrue(waitUntil { conversations.account.state == .signedOut })
                XCTAssertNil(dialog.shownError)
                XCTAssertFalse(window.layout.showsSidebar)
                XCTAssertNil(store.matrix.matrixAccount())
                XCTAssertNil(try awaitOnLoop {
                    try await SecretStore().token(for: Account(userID: Self.alice, homeserver: homeserver))
                })
            }
        }
    }

    func testWithoutASecretServiceTheDialogSaysSoAndNothingIsSignedIn() throws {
        let homeserver = try homeserver
        try TestKeyring.checkPrivateBus()  // no keyring on this bus, and none to start
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            try withWindow(storeIn: folder.url) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                conversations.openAccountDialog()
                let dialog = try XCTUnwrap(conversations.accountDialog)
                Self.fill(dialog, server: homeserver, user: "alice", password: Self.password)
                Self.pressSignIn(dialog)
                XCTAssertEqual(dialog.shownError, SecretStoreError.unavailable(detail: "").description)
                XCTAssertEqual(conversations.account.state, .signedOut)
                XCTAssertNil(store.matrix.matrixAccount())
                XCTAssertFalse(window.layout.showsSidebar)
            }
        }
    }

    func testALockedKeyringShowsTheRoomsAndAnUnlockBannerNotASignIn() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            try withWindow(storeIn: folder.url) { _, window in
                let conversations = try XCTUnwrap(window.conversations)
                XCTAssertNil(try awaitOnLoop {
                    await conversations.account.signIn(server: homeserver, user: "alice", password: Self.password)
                })
            }
            let device = try XCTUnwrap(MessageStore(folder: folder.url).matrix.matrixAccount()?.deviceID)
            try keyring.lock()

            try withWindow(storeIn: folder.url) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                conversations.restore()
                XCTAssertTrue(waitUntil { window.banner.isShown })
                XCTAssertEqual(conversations.account.state, .keyringLocked(userID: Self.alice))
                XCTAssertTrue(window.layout.showsSidebar, "the account's rooms stay")
                XCTAssertNotNil(store.matrix.matrixAccount(), "the account is kept")
                XCTAssertNil(RoomWindowTests.accessibleLabel(of: window.banner.button, is: "Unlock…"))

                // Unlocked (here by a restart that types the password), Unlock restores the same device.
                keyring.stop()
                try keyring.start()
                hark_test_emit(window.banner.button, "clicked")
                XCTAssertTrue(waitUntil { conversations.account.isSignedIn })
                XCTAssertFalse(window.banner.isShown)
                XCTAssertEqual(store.matrix.matrixAccount()?.deviceID, device, "no new sign-in, no new device")
            }
        }
    }

    func testARevokedTokenShowsTheBannerLosesNothingAndSigningInAgainSendsWhatWaited() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let tone = folder.path("tone.ogg")
        try gstLaunch("audiotestsrc num-buffers=100 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(tone)")
        try MainActor.assumeIsolated {
            var recordingID = ""
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: { store in
                recordingID = try store.importFile(tone, title: "Kept through it all").id
            }) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                XCTAssertNil(try awaitOnLoop {
                    await conversations.account.signIn(server: homeserver, user: "alice", password: Self.password)
                })
                let client = try XCTUnwrap(conversations.account.session?.client)
                let roomID = try awaitOnLoop { try await client.createRoom(name: "Notes") }
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains { $0.hasPrefix("Notes") } })

                // The token is revoked elsewhere (another client with it signs out).
                try awaitOnLoop { try await MatrixClient(homeserver: homeserver, session: client.session).logout() }
                let recording = try store.message(recordingID)
                conversations.send(recording, to: roomID)
                XCTAssertTrue(waitUntil { window.banner.isShown }, "the outbox or the sync met the revoked token")
                XCTAssertEqual(conversations.account.state, .signedOutByServer(userID: Self.alice))
                XCTAssertNotEqual(gtk_widget_get_visible(window.banner.widget), 0)
                XCTAssertTrue(window.layout.showsSidebar, "the rooms stay")
                XCTAssertEqual(try store.message(recordingID).state, .ready, "nothing lost")
                XCTAssertEqual(try store.matrix.sendState(of: recordingID), .sending, "the send waits")

                // Sign In, from the banner: the dialog says why, and then what waited is sent.
                hark_test_emit(window.banner.button, "clicked")
                let dialog = try XCTUnwrap(conversations.accountDialog)
                gtk_editable_set_text(OpaquePointer(dialog.passwordRow), Self.password)
                Self.pressSignIn(dialog)
                XCTAssertEqual(conversations.account.state, .signedIn(userID: Self.alice))
                XCTAssertFalse(window.banner.isShown)
                XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: recordingID)) == .sent })
                XCTAssertEqual(try store.matrix.sends(of: recordingID).count, 1)
            }
        }
    }
}
