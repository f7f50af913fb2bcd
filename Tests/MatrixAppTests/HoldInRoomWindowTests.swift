import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// Press-and-hold in a room with the real pointer (xdotool under Xvfb), as
/// in messengers: letting go sends at once, exactly one voice event reaching
/// Bob; dragging away first discards, and nothing reaches him; held with a
/// draft up, the take goes on and is sent whole, once. And a trim handle
/// dragged with the pointer.
extension RoomWindowTests {
    private static func xdotool(_ arguments: String...) throws {
        _ = try ChildProcess.run("/usr/bin/xdotool", arguments, seconds: 15)
    }

    /// Moves the real pointer over `widget`, `dx` points from its centre (in `window`, titled `title`).
    @MainActor
    private static func point(at widget: UnsafeMutablePointer<GtkWidget>, dx: Double = 0, in window: MainWindow,
                              titled title: String) throws {
        let native = try XCTUnwrap(gtk_widget_get_native(widget))
        var surfaceX = 0.0, surfaceY = 0.0
        gtk_native_get_surface_transform(native, &surfaceX, &surfaceY)
        var centre = graphene_point_t(x: Float(gtk_widget_get_width(widget)) / 2 + Float(dx),
                                      y: Float(gtk_widget_get_height(widget)) / 2)
        var inWindow = graphene_point_t()
        XCTAssertEqual(gtk_widget_compute_point(widget, Widget.widget(window.window), &centre, &inWindow), 1)
        let xid = try XCTUnwrap(try ChildProcess.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", title], seconds: 15)
            .output.split(separator: "\n").first.map(String.init))
        try xdotool("windowfocus", "--sync", xid)
        try xdotool("mousemove", "--window", xid, String(Int(Double(inWindow.x) + surfaceX)), String(Int(Double(inWindow.y) + surfaceY)))
    }

    func testHoldingRecordInARoomSendsAtTheReleaseAndDraggingAwayDiscards() throws {
        let title = "Hark hold in a room \(getpid())"
        try inDraftRoom("Held", title: title) { room in
            let (store, window, composer, draft, bob) = (room.store, room.window, room.composer, room.draft, room.bob)
            settle(seconds: 0.5)
            let bobBefore = try Self.bobsSyncToken(bob)

            // Held, then let go: sent at once, no draft.
            try Self.point(at: composer.recordButton, in: window, titled: title)
            try Self.xdotool("mousedown", "1")
            XCTAssertTrue(waitUntil { composer.hold.isHolding && (composer.recorder?.elapsed ?? 0) > 1 }, "held, recording")
            let heldID = try XCTUnwrap(composer.recordingID)
            try Self.xdotool("mouseup", "1")
            XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: heldID)) == .sent }, "sent at the release")
            XCTAssertNil(draft.message, "no draft after a hold")
            XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 1, "exactly one")

            // Held, dragged away, let go: thrown away (undoably), nothing sent.
            try Self.point(at: composer.recordButton, in: window, titled: title)
            try Self.xdotool("mousedown", "1")
            XCTAssertTrue(waitUntil { composer.hold.isHolding && (composer.recorder?.elapsed ?? 0) > 1 }, "held again")
            let draggedID = try XCTUnwrap(composer.recordingID)
            try Self.xdotool("mousemove_relative", "--", "0", "-150")
            XCTAssertTrue(waitUntil { composer.hold.isAway }, "away from Record")
            try Self.xdotool("mouseup", "1")
            XCTAssertTrue(waitUntil { !composer.isRecording && window.pendingDeletions.contains { $0.message.id == draggedID } },
                          "discarded, with Undo")
            XCTAssertNil(draft.message)
            XCTAssertEqual(try store.matrix.sends(of: draggedID), [])
            XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 1, "still the first alone")
        }
    }

    func testHoldingRecordWithADraftUpGoesOnWithItAndSendsTheWholeTakeOnceAtTheRelease() throws {
        let title = "Hark hold on a draft \(getpid())"
        try inDraftRoom("Held on", title: title) { room in
            let (store, window, composer, draft, bob, roomID) = (room.store, room.window, room.composer, room.draft, room.bob, room.roomID)
            let bobBefore = try Self.bobsSyncToken(bob)
            let first = try room.recordDraft(longerThan: 1.5)
            settle(seconds: 0.5)

            // Held with the draft up: the take goes on; let go, it is sent whole.
            try Self.point(at: composer.recordButton, in: window, titled: title)
            try Self.xdotool("mousedown", "1")
            XCTAssertTrue(waitUntil { composer.hold.isHolding && (composer.recorder?.elapsed ?? 0) > 1.5 }, "held, recording on")
            let partID = try XCTUnwrap(composer.recordingID)
            XCTAssertNotEqual(partID, first.id)
            XCTAssertNil(draft.message, "the draft steps aside while the take goes on")
            try Self.xdotool("mouseup", "1")
            XCTAssertTrue(waitUntil { composer.joining != nil }, "the part saved, being joined")
            let part = try store.message(partID)
            XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: first.id)) == .sent }, "sent at the release, once joined")
            XCTAssertNil(draft.message, "no draft left")
            XCTAssertNil(composer.continuing)

            let sent = try store.message(first.id)
            XCTAssertEqual(sent.duration, first.duration + part.duration, accuracy: 0.001, "the draft and the part held")
            XCTAssertThrowsError(try store.message(partID), "the part is in the take, not a message of its own")
            XCTAssertEqual(try store.shownIDs(in: .room(roomID)), [first.id], "one message in the room")
            XCTAssertEqual(try store.matrix.sends(of: first.id).count, 1)
            XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 1, "exactly one reaches Bob")
            let eventID = try XCTUnwrap(try store.matrix.sends(of: first.id).first?.eventID)
            XCTAssertEqual(try Self.sentDuration(bob, room: roomID, eventID: eventID), Int((sent.duration * 1000).rounded()))
        }
    }

    func testATrimHandleDraggedWithThePointerMovesTheStart() throws {
        let title = "Hark trim drag \(getpid())"
        try inDraftRoom("Dragged", title: title) { room in
            let (window, composer, draft) = (room.window, room.composer, room.draft)
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > 2 })
            composer.toggleRecording()
            XCTAssertTrue(waitUntil { draft.message != nil }, "a draft after Stop")
            settle(seconds: 0.5)
            let duration = try XCTUnwrap(draft.message?.duration)
            XCTAssertEqual(draft.selection.start, 0)

            // Pressed on the start handle, dragged a quarter of the waveform in.
            let start = draft.handles.startHandle
            let quarter = Double(gtk_widget_get_width(draft.waveform.widget)) / 4
            try Self.point(at: start, in: window, titled: title)
            try Self.xdotool("mousedown", "1")
            try Self.xdotool("mousemove_relative", "--", String(Int(quarter / 2)), "0")
            try Self.xdotool("mousemove_relative", "--", String(Int(quarter / 2)), "0")
            XCTAssertTrue(waitUntil(seconds: 5) { draft.selection.start > duration / 8 }, "the start follows the pointer")
            try Self.xdotool("mouseup", "1")
            settle()
            XCTAssertEqual(draft.selection.start, duration / 4, accuracy: duration / 10, "a quarter in")
            XCTAssertEqual(draft.selection.end, duration, "the end stays")
            XCTAssertEqual(gtk_root_get_focus(OpaquePointer(window.window)), start, "the handle dragged has the focus")
            XCTAssertEqual(window.playback?.isPlaying, false, "a drag on a handle is no seek that plays")
        }
    }
}
