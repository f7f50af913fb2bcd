import CGtk
import CTestSignals
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import XCTest

/// The words travel with the voice from a room's draft, with the real
/// transcription engine and Bob's client reading the event: the draft shows
/// the take's transcript as it is made, "Send With Transcript" is off until
/// turned on and is remembered, and Send puts the words inside the event as
/// its caption; a Send pressed before the words came waits for them, or
/// goes at once without them when the switch is turned off meanwhile.
extension RoomWindowTests {
    /// A take of `sentence`, recorded in the window from espeak-ng's speech (the file's end stops it).
    @MainActor
    private static func recordDraft(_ sentence: String, in window: MainWindow, folder: ScratchFolder, name: String)
        throws -> (draft: DraftView, id: String) {
        let wav = folder.path("\(name).wav")
        try PulseAudioServer.speech(sentence, to: wav)
        let composer = try XCTUnwrap(window.composer)
        let draft = try XCTUnwrap(composer.draft)
        composer.source = { (.pipeline("filesrc location=\(wav) ! wavparse ! identity sync=true"), nil) }
        composer.toggleRecording()
        XCTAssertTrue(waitUntil(seconds: 30) { !composer.isRecording }, "the recording ends with its source")
        XCTAssertTrue(waitUntil { draft.message != nil && !draft.isTrimming }, "a draft after the take")
        return (draft, try XCTUnwrap(draft.message?.id))
    }

    @MainActor
    private static func sentContent(_ store: MessageStore, _ id: String, bob: MatrixClient, room: String) throws -> [String: Any] {
        XCTAssertTrue(waitUntil(seconds: 600) { (try? store.matrix.sendState(of: id)) == .sent }, "sent")
        let eventID = try XCTUnwrap(try store.matrix.sends(of: id).first?.eventID)
        let json = try awaitOnLoop { try await bob.eventJSON(roomID: room, eventID: eventID) }
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return try XCTUnwrap(event["content"] as? [String: Any])
    }

    func testTheDraftShowsItsTranscriptAndSendWithTranscriptPutsTheWordsInTheEvent() throws {
        let engine = try RoomUndoTests.installedEngine()
        setenv("HARK_TRANSCRIBER_DIR", engine, 1)
        defer { unsetenv("HARK_TRANSCRIBER_DIR") }
        try inDraftRoom("Words", before: { store in
            try store.setSetting(MessageStore.transcriptionSetting, "on")
        }) { draftRoom in
            let (store, window, bob, room, folder) = (draftRoom.store, draftRoom.window, draftRoom.bob,
                                                      draftRoom.roomID, draftRoom.folder)
            let view = try XCTUnwrap(window.draftTranscript)

            // The draft is the time the transcript needs: it shows up there.
            let (draft, first) = try Self.recordDraft("The dentist moved my appointment to Thursday.", in: window,
                                                      folder: folder, name: "dentist")
            XCTAssertEqual(gtk_widget_get_visible(view.widget), 1)
            @MainActor func shownWords() -> String { gtk_label_get_text(hark_label(view.words)).map { String(cString: $0) } ?? "" }
            XCTAssertTrue(waitUntil(seconds: 600) { shownWords().lowercased().contains("thursday") }, shownWords())
            let words = try XCTUnwrap(try store.message(first).transcript)
            XCTAssertEqual(shownWords(), words)
            XCTAssertNil(Self.accessibleLabel(of: view.sendSwitch, is: "Send With Transcript"))
            XCTAssertEqual(gtk_switch_get_active(OpaquePointer(view.sendSwitch)), 0, "off until turned on")
            gtk_switch_set_active(OpaquePointer(view.sendSwitch), 1)
            XCTAssertTrue(store.sendsWithTranscript, "remembered")
            hark_test_emit(draft.sendButton, "clicked")
            var content = try Self.sentContent(store, first, bob: bob, room: room)
            // Cut to its handles as it went: the words said in what was kept (here, all of them).
            let sent = try XCTUnwrap(try store.message(first).transcript)
            XCTAssertTrue(sent.lowercased().contains("thursday"), sent)
            XCTAssertEqual(content["body"] as? String, sent, "the caption")
            let title = try store.message(first).title
            XCTAssertEqual(content["filename"] as? String, "\(title).ogg")
            XCTAssertEqual(content["org.matrix.msc1767.text"] as? String, sent)
            XCTAssertNotNil(content["org.matrix.msc3245.voice"])

            // Sent before the words came: it waits for them, then goes with them; the switch stays on.
            let (_, second) = try Self.recordDraft("Please call me back this evening.", in: window, folder: folder, name: "call")
            XCTAssertEqual(gtk_switch_get_active(OpaquePointer(view.sendSwitch)), 1, "remembered")
            XCTAssertEqual(try store.message(second).transcriptState, .queued, "sent before it was transcribed")
            hark_test_emit(draft.sendButton, "clicked")
            XCTAssertEqual(shownWords(), "Sending once transcribed…")
            XCTAssertEqual(try store.matrix.sends(of: second), [], "not yet")
            content = try Self.sentContent(store, second, bob: bob, room: room)
            let later = try XCTUnwrap(try store.message(second).transcript)
            XCTAssertTrue(later.lowercased().contains("evening"), later)
            XCTAssertEqual(content["body"] as? String, later)

            // Waiting for the words, the switch turned off: it goes at once, the voice alone, as before.
            let (_, third) = try Self.recordDraft("See you tomorrow.", in: window, folder: folder, name: "tomorrow")
            XCTAssertEqual(try store.message(third).transcriptState, .queued)
            hark_test_emit(draft.sendButton, "clicked")
            XCTAssertEqual(shownWords(), "Sending once transcribed…")
            gtk_switch_set_active(OpaquePointer(view.sendSwitch), 0)
            XCTAssertFalse(store.sendsWithTranscript)
            XCTAssertEqual(try store.matrix.sends(of: third).count, 1, "queued at once")
            content = try Self.sentContent(store, third, bob: bob, room: room)
            // Its title (whichever it had as it went: the words may have renamed it since) and no caption.
            let body = try XCTUnwrap(content["body"] as? String)
            XCTAssertEqual((content["org.matrix.msc1767.file"] as? [String: Any])?["name"] as? String, body + ".ogg")
            XCTAssertNil(content["filename"], "no caption")
        }
    }
}
