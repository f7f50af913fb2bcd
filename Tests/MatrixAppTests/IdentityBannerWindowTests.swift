import CGtk
import CTestSignals
import Foundation
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

extension IdentityBanner {
    var isShown: Bool { gtk_revealer_get_reveal_child(OpaquePointer(widget)) != 0 }
    var text: String { gtk_label_get_text(hark_label(label)).map { String(cString: $0) } ?? "" }
}

/// An encrypted room with Bob, whose identity changed since Hark pinned it
/// (as the encryption records it: EncryptionTests/IdentityChangeTests shows
/// it happen): the room says so until Accept pins the new one. (An extension
/// of RoomWindowTests: the same homeserver.)
extension RoomWindowTests {
    func testAnEncryptedRoomSaysBobsIdentityChangedUntilAccepted() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try Self.signIn(window, homeserver)
                let session = try XCTUnwrap(conversations.account.session)
                let secret = try awaitOnLoop { try await bob.createRoom(name: "Secret", invite: [Self.alice], encrypted: true) }
                let plain = try awaitOnLoop { try await bob.createRoom(name: "Unencrypted beside the banner", invite: [Self.alice]) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(secret)) != nil && (try? store.matrix.room(plain)) != nil })
                try awaitOnLoop { try await session.join(secret) }
                try awaitOnLoop { try await session.join(plain) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(secret))??.isEncrypted == true })
                let banner = conversations.identityBanner
                conversations.show(.room(secret))
                XCTAssertFalse(banner.isShown, "no change, no banner")

                try store.matrix.pinIdentity(of: "@bob:localhost", masterKey: "old")
                try store.matrix.setIdentityChange(of: "@bob:localhost", to: "new")
                conversations.show(.room(plain))
                XCTAssertFalse(banner.isShown, "not in a room that is not encrypted")
                conversations.show(.room(secret))
                XCTAssertTrue(banner.isShown)
                XCTAssertEqual(banner.text, "bob’s identity has changed. Messages from their devices are marked until you accept it.")
                XCTAssertNil(Self.accessibleLabel(of: banner.button, is: "Accept bob’s new identity"))

                hark_test_emit(banner.button, "clicked")
                XCTAssertFalse(banner.isShown)
                XCTAssertEqual(try store.matrix.identityChanges(), [])
                XCTAssertEqual(try store.matrix.pinnedIdentity(of: "@bob:localhost")?.masterKey, "new")
            }
        }
    }
}
