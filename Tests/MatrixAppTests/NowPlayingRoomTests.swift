import CGtk
import CTestSignals
import HarkModel
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// Bob's voice message plays on while Alice goes to her recordings: the
/// strip under the header bar shows it (and where it stands), pauses it,
/// takes her back to its room and row, and closes it. (An extension of
/// RoomWindowTests, on its homeserver; the room's name is this test's own.)
extension RoomWindowTests {
    func testARoomSwitchDoesNotStopPlaybackAndTheStripPausesAndGoesBackToTheRoom() throws {
        let folder = try ScratchFolder()
        let tone = try oggTone("long.ogg", seconds: 30, in: folder)
        let (homeserver, keyring) = (try homeserver, try TestKeyring())
        defer { keyring.stop() }
        try MainActor.assumeIsolated {
            PlaybackController.audioSink = "fakesink sync=true"  // no sound card here
            let bob = try Self.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try Self.signIn(window, homeserver)
                let (history, playback, strip) = (try XCTUnwrap(window.history), try XCTUnwrap(window.playback),
                                                  try XCTUnwrap(window.nowPlaying))
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Strip", invite: [Self.alice]) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.membership == .invite })
                try awaitOnLoop { try await conversations.account.session!.join(roomID) }
                _ = try Self.sendVoice(from: bob, to: roomID, path: tone)
                var received: Message?
                XCTAssertTrue(waitUntil {
                    received = (try? store.shownIDs(in: .room(roomID)))?.compactMap { try? store.message($0) }.first { $0.state == .ready }
                    return received != nil
                }, "Bob's message downloaded")
                let id = try XCTUnwrap(received).id
                conversations.show(.room(roomID))
                XCTAssertTrue(waitUntil { history.row(showing: id) != nil })
                history.actions.activate(.play, id)
                XCTAssertTrue(waitUntil { playback.isPlaying && gtk_widget_get_mapped(strip.widget) != 0 })

                // To the recordings: it plays on, the strip says what and where it stands.
                conversations.show(.recordings)
                XCTAssertEqual(history.scope, .recordings)
                XCTAssertNil(history.row(showing: id), "the room's row is not on screen")
                XCTAssertEqual(playback.currentID, id)
                XCTAssertTrue(playback.isPlaying)
                XCTAssertNil(Self.accessibleLabel(of: strip.goButton, is: "Go to “Hello”"))
                XCTAssertNil(Self.accessibleLabel(of: strip.playButton, is: "Pause Playback"))
                XCTAssertEqual(String(cString: gtk_label_get_text(hark_label(strip.senderLabel))), "bob")
                let shown = String(cString: gtk_label_get_text(hark_label(strip.timeLabel)))
                XCTAssertTrue(waitUntil(seconds: 15) { String(cString: gtk_label_get_text(hark_label(strip.timeLabel))) != shown },
                              "the position advances")

                // Its Pause pauses it.
                hark_test_emit(strip.playButton, "clicked")
                XCTAssertTrue(waitUntil(seconds: 15) { !playback.isPlaying })
                XCTAssertNil(Self.accessibleLabel(of: strip.playButton, is: "Resume Playback"))

                // Its title goes back to the room, the keyboard on the message's row.
                hark_test_emit(strip.goButton, "clicked")
                XCTAssertEqual(history.scope, .room(roomID))
                XCTAssertEqual(conversations.sidebar.selected, .room(roomID))
                XCTAssertTrue(waitUntil(seconds: 15) {
                    guard let focus = gtk_root_get_focus(OpaquePointer(window.window)) else { return false }
                    return history.row(holding: focus)?.message?.id == id
                }, "its row has the focus")

                // Close stops it.
                hark_test_emit(strip.closeButton, "clicked")
                XCTAssertNil(playback.currentID)
                XCTAssertEqual(gtk_widget_get_mapped(strip.widget), 0)
            }
        }
    }
}
