import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Conversations
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
@testable import Matrix
import MatrixCrypto
import MessageStore
import XCTest

/// Encryption set up from the window, against a real Synapse and keyring:
/// Set Up Encryption installs the real engine from PyPI into a fresh folder
/// and opens the encrypted room in the running window; the account dialog
/// makes a recovery key and shows it once, and verifies a second device with
/// a key made elsewhere, saying when a key is wrong.
final class EncryptionSetupWindowTests: SharedServerTestCase {
    static let password = SharedHomeserver.password
    override class var users: [String] { ["alice", "bob", "carol"] }

    /// The engine Hark finds while `body` runs: `folder`.
    @MainActor
    static func withEngine(in folder: String, _ body: () throws -> Void) rethrows {
        setenv("HARK_CRYPTO_ENGINE_DIR", folder, 1)
        defer { unsetenv("HARK_CRYPTO_ENGINE_DIR") }
        try body()
    }

    @MainActor
    static func text(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_label_get_text(hark_label(label)))
    }

    @MainActor
    static func isShown(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_is_visible(widget) != 0 }

    func testSetUpEncryptionInstallsTheEngineOpensTheRoomAndMakesARecoveryKeyShownOnce() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let engine = folder.url.appendingPathComponent("engine").path
        try MainActor.assumeIsolated {
            try Self.withEngine(in: engine) {
                let bob = try RoomWindowTests.bob(homeserver)
                try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                    let conversations = try XCTUnwrap(window.conversations)
                    conversations.notify = { _ in }
                    let account = conversations.account
                    XCTAssertNil(try awaitOnLoop { await account.signIn(server: homeserver, user: "carol", password: Self.password) })
                    let session = try XCTUnwrap(account.session)
                    let secret = try awaitOnLoop { try await bob.createRoom(name: "Secret", invite: ["@carol:localhost"], encrypted: true) }
                    XCTAssertTrue(waitUntil { (try? store.matrix.room(secret)) != nil })
                    try awaitOnLoop { try await session.join(secret) }
                    XCTAssertTrue(waitUntil { (try? store.matrix.room(secret))??.isEncrypted == true })
                    conversations.show(.room(secret))

                    // The room's page offers the setup; Record says why it is off.
                    let page = try XCTUnwrap(window.emptyStatePage)
                    let setup = conversations.encryptionSetup
                    XCTAssertEqual(gtk_stack_get_visible_child_name(OpaquePointer(window.stack)).map { String(cString: $0) }, "empty")
                    XCTAssertTrue(Self.isShown(setup.button))
                    XCTAssertTrue(String(cString: adw_status_page_get_description(OpaquePointer(page)))
                        .hasSuffix(WindowConversations.encryptionSetUp))
                    let composer = try XCTUnwrap(window.composer)
                    XCTAssertFalse((gtk_widget_get_sensitive(composer.recordButton) != 0))

                    // Set Up Encryption: the installer's progress in words and a bar, then the room open.
                    var progressShown: [String] = []
                    let watching = account.encryptionSetup.changes.subscribe { state in
                        if case .installing = state, Self.isShown(setup.progress.bar) { progressShown.append(Self.text(setup.progress.label)) }
                    }
                    defer { watching.cancel() }
                    hark_test_emit(setup.button, "clicked")
                    XCTAssertFalse(Self.isShown(setup.button), "not pressed twice")
                    XCTAssertTrue(waitUntil(seconds: 180) { !account.encryptionSetup.isBusy && !Self.isShown(setup.progress.bar) })
                    XCTAssertTrue(account.canEncrypt, "\(account.encryptionSetup.state)")
                    XCTAssertTrue(progressShown.contains("Downloading the encryption engine (about 1 MB)…"), "\(progressShown)")
                    XCTAssertTrue(FileManager.default.fileExists(atPath: engine + "/hark-requirements.sha256"), "installed where asked")
                    XCTAssertTrue(waitUntil { (gtk_widget_get_sensitive(composer.recordButton) != 0) }, "Record works in the encrypted room, no restart")
                    XCTAssertFalse(Self.isShown(setup.widget))
                    XCTAssertEqual(String(cString: adw_status_page_get_description(OpaquePointer(page))),
                                   "Record a message with the button below: it is sent to Secret.")
                    let own = try XCTUnwrap(session.client.session)
                    let published = try awaitOnLoop { try await bob.queryKeys(users: [own.userID]) }
                    XCTAssertNotNil(published.devices[own.userID]?[own.deviceID], "this device's keys are on the server")

                    // Send to… offers the encrypted room now.
                    let voice = try oggVoiceFile(in: folder)
                    let recording = try store.importFile(voice, title: "For the secret room")
                    conversations.show(.recordings)
                    let history = try XCTUnwrap(window.history)
                    let row = try XCTUnwrap(history.row(showing: recording.id))
                    gtk_widget_activate_action_variant(row.widget, HistoryActions.Name.sendTo.detailed, g_variant_new_string(recording.id))
                    XCTAssertTrue(waitUntil { ShownSendToDialog.over(window) != nil })
                    XCTAssertTrue(ShownSendToDialog.over(window)?.roomNames.contains("Secret") == true)
                    if let shown = ShownSendToDialog.over(window) { gtk_window_close(hark_window(shown.widget)) }

                    // The account has no whole identity (a master key alone, left by an unfinished setup, so
                    // Synapse asks for the password): the dialog makes its recovery key and shows it once.
                    let master = MatrixBase64.encode(try Ed25519SigningKey.generate().publicKey)
                    let lone: JSONValue = ["master_key": ["user_id": .string(own.userID), "usage": ["master"],
                                                          "keys": .object(["ed25519:\(master)": .string(master)])]]
                    try awaitOnLoop { let _: Empty = try await session.client.call(
                        APIRequest(.post, "\(Endpoints.client)/keys/device_signing/upload", body: encodeJSON(lone), contentType: "application/json")) }
                    g_action_group_activate_action(OpaquePointer(window.window), "matrix-account", nil)
                    let dialog = try XCTUnwrap(conversations.accountDialog)
                    let recovery = dialog.recovery
                    XCTAssertTrue(waitUntil { Self.text(recovery.statusLabel) == "This device is not verified." })
                    XCTAssertTrue(Self.isShown(recovery.createButton))
                    XCTAssertFalse(Self.isShown(recovery.keyRow), "no key to enter yet")
                    XCTAssertFalse(Self.isShown(recovery.passwordRow), "no password asked for before the server does")
                    hark_test_emit(recovery.createButton, "clicked")
                    XCTAssertTrue(waitUntil { Self.isShown(recovery.passwordRow) })
                    XCTAssertEqual(Self.text(recovery.errorLabel), "The server asks for your password before it takes the new identity keys.")
                    for (typed, answer) in [("wrong", "The user name or password is wrong."), (Self.password, nil)] {
                        gtk_editable_set_text(OpaquePointer(recovery.passwordRow), typed)
                        hark_test_emit(recovery.createButton, "clicked")
                        XCTAssertTrue(waitUntil { !recovery.isBusy })
                        XCTAssertEqual(Self.isShown(recovery.errorLabel) ? Self.text(recovery.errorLabel) : nil, answer)
                    }
                    XCTAssertTrue(waitUntil { Self.text(recovery.statusLabel) == "This device is verified." })
                    XCTAssertFalse(Self.isShown(recovery.errorLabel), Self.text(recovery.errorLabel))
                    let shownKey = Self.text(recovery.newKeyLabel)
                    XCTAssertTrue(Self.isShown(recovery.newKeyLabel))
                    XCTAssertNotEqual(gtk_label_get_selectable(hark_label(recovery.newKeyLabel)), 0)
                    XCTAssertNoThrow(try RecoveryKey.decode(shownKey))
                    XCTAssertTrue(Self.isShown(recovery.copyButton))
                    let crossSigning = try XCTUnwrap(account.crossSigning)
                    XCTAssertTrue(try awaitOnLoop { try await crossSigning.status() }.deviceCrossSigned)
                }
            }
        }
    }

    func testTheRecoveryKeyVerifiesThisDeviceAfterSignInAndAWrongKeyIsSaidToBeWrong() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try MainActor.assumeIsolated {
            try Self.withEngine(in: checkout.appendingPathComponent(".build/crypto-engine").path) {
                // Alice's laptop makes the identity; its recovery key verifies the window's device.
                let laptop = MatrixClient(homeserver: homeserver)
                try awaitOnLoop { try await laptop.login(user: "alice", password: Self.password) }
                let laptopSession = ConversationSession(client: laptop, store: try MessageStore(folder: folder.url.appendingPathComponent("laptop")),
                                                        secrets: SecretStore())
                defer { laptopSession.encryption?.engine.stop() }
                XCTAssertNil(try awaitOnLoop { await laptopSession.setUpEncryptionNow() })
                let own = try XCTUnwrap(laptop.session)
                let recoveryKey = try awaitOnLoop {
                    try await CrossSigning(client: laptop, userID: own.userID, deviceID: own.deviceID).createIdentity()
                }

                try withWindow(storeIn: folder.url.appendingPathComponent("store")) { _, window in
                    let conversations = try XCTUnwrap(window.conversations)
                    g_action_group_activate_action(OpaquePointer(window.window), "matrix-account", nil)
                    let dialog = try XCTUnwrap(conversations.accountDialog)
                    AccountWindowTests.fill(dialog, server: homeserver, user: "alice", password: Self.password)
                    AccountWindowTests.pressSignIn(dialog)
                    XCTAssertTrue(dialog.isOpen, "signed in, the dialog stays for the recovery key")
                    let recovery = dialog.recovery
                    XCTAssertTrue(waitUntil { Self.text(recovery.statusLabel) == "This device is not verified." })
                    XCTAssertTrue(Self.isShown(recovery.keyRow))
                    XCTAssertFalse(Self.isShown(recovery.createButton), "the account has its identity")
                    let labels = Widget.descendants(of: recovery.widget).filter { Widget.typeName($0) == "GtkLabel" && Self.isShown($0) }
                    XCTAssertTrue(labels.map(Self.text).contains(RecoveryKeyView.why), "it says why")

                    let wrong = try RecoveryKey.encode(try secureRandomBytes(32))
                    gtk_editable_set_text(OpaquePointer(recovery.keyRow), wrong)
                    hark_test_emit(recovery.verifyButton, "clicked")
                    XCTAssertTrue(waitUntil { Self.isShown(recovery.errorLabel) })
                    XCTAssertEqual(Self.text(recovery.errorLabel),
                                   "This recovery key or passphrase does not unlock this account's secret storage.")
                    XCTAssertEqual(Self.text(recovery.statusLabel), "This device is not verified.")

                    gtk_editable_set_text(OpaquePointer(recovery.keyRow), recoveryKey)
                    hark_test_emit(recovery.verifyButton, "clicked")
                    XCTAssertTrue(waitUntil { Self.text(recovery.statusLabel) == "This device is verified." })
                    XCTAssertFalse(Self.isShown(recovery.errorLabel))
                    XCTAssertFalse(Self.isShown(recovery.keyRow))
                    let crossSigning = try XCTUnwrap(conversations.account.crossSigning)
                    XCTAssertTrue(try awaitOnLoop { try await crossSigning.status() }.deviceCrossSigned)
                }
            }
        }
    }
}
