import AudioEngine
import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import HarkModel
import HarkTestSupport
import Levels
import Matrix
@testable import HarkUI
import MessageStore
import XCTest

/// The draft's trim handles and Record in a draft, against the local Synapse
/// with Bob on the other side: the end handle moved by the keyboard shortens
/// what is sent (and kept) by as much; Record in a draft goes on with the
/// same take, which is sent once, whole.
extension RoomWindowTests {
    /// The duration Bob's client reads in the voice event `eventID` (milliseconds).
    @MainActor
    static func sentDuration(_ bob: MatrixClient, room: String, eventID: String) throws -> Int? {
        let json = try awaitOnLoop { try await bob.eventJSON(roomID: room, eventID: eventID) }
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return ((event["content"] as? [String: Any])?["info"] as? [String: Any])?["duration"] as? Int
    }

    /// What a draft test works with: Alice signed in, in Bob's room, recording a steady tone there.
    struct DraftRoom {
        let store: MessageStore
        let window: MainWindow
        let composer: ComposerView
        let draft: DraftView
        let bob: MatrixClient
        let roomID: String
        /// The test's own folder (the store is in it).
        let folder: ScratchFolder

        /// Records for more than `seconds`, then Stop: the draft's take.
        @MainActor
        func recordDraft(longerThan seconds: Double) throws -> Message {
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > seconds })
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { draft.message != nil }, "a draft after Stop")
            return try XCTUnwrap(draft.message)
        }
    }

    /// Runs `body` in Bob's room `name`, shown in a window titled `title` (for
    /// xdotool), its store prepared by `before` as the window opens.
    func inDraftRoom(_ name: String, title: String? = nil, before: @MainActor (MessageStore) throws -> Void = { _ in },
                     _ body: @MainActor (DraftRoom) throws -> Void) throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        try MainActor.assumeIsolated {
            PlaybackController.audioSink = "fakesink sync=true"
            let bob = try Self.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: before) { store, window in
                if let title { gtk_window_set_title(window.window, title) }
                let conversations = try Self.signIn(window, homeserver)
                let roomID = try RoomUndoTests.joinedRoom(name, bob: bob, conversations: conversations, store: store)
                conversations.show(.room(roomID))
                let composer = try XCTUnwrap(window.composer)
                // A steady tone: the default trim cuts nothing, the handles stand at the ends.
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                try body(DraftRoom(store: store, window: window, composer: composer, draft: try XCTUnwrap(composer.draft),
                                   bob: bob, roomID: roomID, folder: folder))
            }
        }
    }

    func testTheEndHandleMovedByKeysShortensWhatIsSentAndKept() throws {
        try inDraftRoom("Handles") { room in
            let (store, window, composer, draft, bob, roomID) = (room.store, room.window, room.composer, room.draft, room.bob, room.roomID)
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > 2.5 })
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { draft.message != nil }, "a draft after Stop")
            let take = try XCTUnwrap(draft.message)
            let start = draft.handles.startHandle, end = draft.handles.endHandle
            XCTAssertNil(Self.accessibleLabel(of: start, is: "Start of message"))
            XCTAssertNil(Self.accessibleLabel(of: end, is: "End of message"))
            XCTAssertEqual(gtk_accessible_get_accessible_role(OpaquePointer(end)), GTK_ACCESSIBLE_ROLE_SLIDER)
            XCTAssertEqual(gtk_widget_get_focusable(end), 1, "reached by Tab")
            XCTAssertEqual(draft.selection.kept, 0...take.duration, "nothing to cut in a steady tone")
            XCTAssertEqual(draft.length.text, DurationText.clock(take.duration))

            // Ten steps to the left: a second off the end.
            gtk_widget_grab_focus(end)
            for _ in 0..<10 {
                XCTAssertTrue(NewConversationWindowTests.press(UInt32(GDK_KEY_Left), in: end), "the handle takes Left")
            }
            let kept = (take.duration / 0.1).rounded() * 0.1 - 1
            XCTAssertEqual(draft.selection.end, kept, accuracy: 0.001)
            XCTAssertNil(Self.accessible(end, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, is: TrimHandles.valueText(kept)),
                         "a screen reader hears where it stands")
            XCTAssertEqual(draft.length.text, DurationText.clock(kept), "the length follows")
            XCTAssertTrue(NewConversationWindowTests.press(UInt32(GDK_KEY_Right), in: end))
            XCTAssertTrue(NewConversationWindowTests.press(UInt32(GDK_KEY_Left), in: end))
            XCTAssertEqual(draft.selection.end, kept, accuracy: 0.001, "Right moves it back")

            // Play plays the kept part only: it pauses at the end handle, back at the start.
            let playback = try XCTUnwrap(window.playback)
            playback.seek(take.id, to: kept - 0.4, preview: false)
            hark_test_emit(draft.playButton, "clicked")
            XCTAssertTrue(waitUntil { playback.currentID == take.id && playback.isPlaying })
            XCTAssertEqual(gtk_widget_get_visible(try XCTUnwrap(window.nowPlaying).widget), 0,
                           "no now-playing strip for the draft: it has its own controls, and no row to go to")
            XCTAssertTrue(waitUntil { !playback.isPlaying }, "paused at the end handle")
            XCTAssertLessThan(playback.position(of: take), kept)

            // Send: what goes (and what stays in the room) is what lay between the handles.
            hark_test_emit(draft.sendButton, "clicked")
            XCTAssertTrue(waitUntil { draft.message == nil }, "sent once cut")
            XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: take.id)) == .sent })
            let stored = try store.message(take.id)
            XCTAssertEqual(stored.duration, kept, accuracy: 0.001)
            XCTAssertEqual(try Analyzer.analyze(path: store.audioPath(of: stored)).duration, kept, accuracy: 0.03,
                           "the audio is as long, within a frame")
            let eventID = try XCTUnwrap(try store.matrix.sends(of: take.id).first?.eventID)
            XCTAssertEqual(try Self.sentDuration(bob, room: roomID, eventID: eventID), Int((kept * 1000).rounded()))
        }
    }

    func testRecordInADraftGoesOnWithTheSameTakeWhichIsSentOnce() throws {
        try inDraftRoom("Going on") { room in
            let (store, window, composer, draft, bob, roomID) = (room.store, room.window, room.composer, room.draft, room.bob, room.roomID)
            let history = try XCTUnwrap(window.history)
            let bobBefore = try Self.bobsSyncToken(bob)

            let first = try room.recordDraft(longerThan: 1.5)
            let firstLevels = try XCTUnwrap(try store.levels(of: first.id))
            XCTAssertNil(Self.accessibleLabel(of: composer.recordButton, is: "Continue recording"))
            XCTAssertEqual(gtk_widget_get_tooltip_text(composer.recordButton).map { String(cString: $0) },
                           "Continue recording (Ctrl+R)")

            // Record again: the draft steps aside while the take goes on.
            composer.toggleRecording()
            XCTAssertTrue(composer.isRecording)
            XCTAssertEqual(gtk_widget_get_visible(draft.widget), 0)
            let partID = try XCTUnwrap(composer.recordingID)
            XCTAssertNotEqual(partID, first.id)
            XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > 1.5 })
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { composer.joining != nil }, "the part saved, being joined")
            let part = try store.message(partID)
            XCTAssertTrue(waitUntil { draft.message != nil && composer.joining == nil }, "the draft is back")

            // One draft, the same take, as long as both parts, its levels those of both.
            let whole = try XCTUnwrap(draft.message)
            XCTAssertEqual(whole.id, first.id)
            XCTAssertEqual(whole.duration, first.duration + part.duration, accuracy: 0.001)
            XCTAssertEqual(try Analyzer.analyze(path: store.audioPath(of: whole)).duration, whole.duration, accuracy: 0.03,
                           "the joined audio is as long, within a frame")
            let levels = try XCTUnwrap(try store.levels(of: whole.id))
            XCTAssertEqual(Array(levels.rms.prefix(firstLevels.count - 1)), Array(firstLevels.rms.prefix(firstLevels.count - 1)),
                           "the first part's levels first")
            XCTAssertEqual(Double(levels.count) * 0.05, whole.duration, accuracy: 0.1)
            XCTAssertThrowsError(try store.message(partID), "the part is in the take now, not a message of its own")
            XCTAssertEqual(draft.selection.kept, 0...whole.duration)
            XCTAssertEqual(draft.length.text, DurationText.clock(whole.duration))
            history.apply(.storeChanged)
            XCTAssertNil(history.row(showing: whole.id), "the draft is no row of the room's before Send")
            XCTAssertNil(history.row(showing: partID))

            // Send: one voice event, the whole take.
            hark_test_emit(draft.sendButton, "clicked")
            XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: whole.id)) == .sent })
            XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 1, "exactly one")
            let eventID = try XCTUnwrap(try store.matrix.sends(of: whole.id).first?.eventID)
            XCTAssertEqual(try Self.sentDuration(bob, room: roomID, eventID: eventID), Int((whole.duration * 1000).rounded()))
        }
    }

    func testTheHandlesStartWhereTheSilenceWouldBeCutAndSendCutsThere() throws {
        let folder = try ScratchFolder()
        let opus = try Self.takeWithPauses(in: folder)
        try inDraftRoom("Pauses") { room in
            let (store, composer, draft, bob, roomID) = (room.store, room.composer, room.draft, room.bob, room.roomID)
            // A take with 2 s of silence at each end, as if just recorded into the room.
            let take = try store.beginRecording(roomID: roomID)
            try FileManager.default.copyItem(atPath: opus, toPath: store.audioPath(of: take))
            let analysis = try Analyzer.analyze(path: opus)
            try store.finishRecording(take.id, duration: analysis.duration, levels: analysis.levels)
            composer.showDraft(try store.message(take.id))
            XCTAssertEqual(draft.message?.id, take.id)
            let expected = TakeTrim(levels: analysis.levels, duration: analysis.duration)
            XCTAssertEqual(draft.selection.kept, expected.kept, "the handles stand where the default trim cuts")
            XCTAssertEqual(draft.selection.length, 2, accuracy: 0.3, "about 3.5 s of silence outside them")
            XCTAssertEqual(draft.length.text, DurationText.clock(draft.selection.length))
            XCTAssertEqual(try store.message(take.id).duration, analysis.duration, accuracy: 0.001, "nothing cut before Send")

            hark_test_emit(draft.sendButton, "clicked")
            XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: take.id)) == .sent })
            let kept = try store.message(take.id).duration
            XCTAssertEqual(kept, expected.kept.upperBound - expected.kept.lowerBound, accuracy: 0.001)
            let eventID = try XCTUnwrap(try store.matrix.sends(of: take.id).first?.eventID)
            XCTAssertEqual(try Self.sentDuration(bob, room: roomID, eventID: eventID), Int((kept * 1000).rounded()))
            // The tone is all there: the audio sent, measured again, has its levels where it now stands.
            let levels = try Analyzer.analyze(path: store.audioPath(of: try store.message(take.id))).levels
            let offset = Int((expected.kept.lowerBound / 0.05).rounded(.down))
            for index in 45..<65 { // the middle of the tone (2 s…3.5 s in the original)
                XCTAssertEqual(levels.rms[index - offset], analysis.levels.rms[index], accuracy: 1, "interval \(index)")
            }
        }
    }
}
