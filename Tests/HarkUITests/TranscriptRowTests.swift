import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import StoreAudio
import XCTest

/// A message's transcript in its history row, with real GTK rows over a real
/// store: transcripts are stored through the store's own API (the engine is
/// tested in TranscriptionTests). What the row shows and says to a screen
/// reader, opening it, seeking by a segment, copying it, and the menus'
/// Transcribe items.
final class TranscriptRowTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    static let segments = [TranscriptSegment(start: 0, end: 1, text: "Dentist moved to Thursday at 10."),
                           TranscriptSegment(start: 1, end: 2.2, text: "The car is free on Wednesday after all, so bring the big bag for the shopping."),
                           TranscriptSegment(start: 2.4, end: 3, text: "Call me back.")]
    static var text: String { segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }

    /// A shown window over a store whose messages (3 s tones, a minute
    /// apart, oldest first) are titled `titles`; `prepare` gives them their
    /// transcripts.
    private func withMessages(_ titles: [String], sink: String? = nil, width: Int32? = nil,
                              prepare: @escaping @MainActor (MessageStore, [String]) throws -> Void = { _, _ in },
                              _ body: @escaping @MainActor (MessageStore, MainWindow, [String]) throws -> Void) throws {
        let folder = self.folder
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 3)
        try onMainActor {
            let saved = PlaybackController.audioSink
            if let sink { PlaybackController.audioSink = sink }
            defer { PlaybackController.audioSink = saved }
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                let ids = try titles.enumerated().map { index, title in
                    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(Double(index - titles.count) * 60)],
                                                          ofItemAtPath: tone)
                    let message = try store.importFile(tone)
                    try store.rename(message.id, to: title)
                    return message.id
                }
                try prepare(store, ids)
                return ids
            }) { store, window, ids in
                if let width { gtk_window_set_default_size(window.window, width, 700) }
                window.present()
                settle(seconds: 0.5)
                try body(store, window, ids)
            }
        }
    }

    @MainActor
    private static func row(_ window: MainWindow, _ id: String) throws -> MessageRow {
        try XCTUnwrap(window.history?.row(showing: id), "the row is on screen")
    }

    @MainActor
    private static func visible(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        gtk_widget_get_visible(widget) != 0
    }

    /// nil when the row's list item is described as `expected`, else what it is described as.
    @MainActor
    private static func descriptionDiffers(_ row: MessageRow, _ expected: String) throws -> String? {
        row.descriptionDiffers(from: expected)
    }

    /// A click on `button` (GTK's activation: it is clicked a moment later),
    /// and what it did.
    @MainActor
    private static func click(_ button: UnsafeMutablePointer<GtkWidget>, until done: @MainActor () -> Bool,
                              _ what: String = "the click did its work") throws {
        gtk_widget_activate(button)
        XCTAssertTrue(MainLoop.iterate(until: done, timeout: 5), what)
    }

    @MainActor
    private static func mainMenuButton(_ window: MainWindow) throws -> UnsafeMutablePointer<GtkWidget> {
        try XCTUnwrap(Widget.descendants(of: Widget.widget(window.window)).first {
            Widget.typeName($0) == "GtkMenuButton" && gtk_widget_get_tooltip_text($0).map { String(cString: $0) } == "Main Menu"
        })
    }

    func testARowShowsItsTranscriptMarkedAndItsStateInWordsAndScreenReadersReadIt() throws {
        try withMessages(["Said", "Waiting", "Broken", "Silent", "Old"], prepare: { store, ids in
            try store.setSetting(MessageStore.transcriptionSetting, "on")
            try store.storeTranscript(ids[0], segments: Self.segments)
            try store.queueTranscription([ids[1], ids[2], ids[3]])
            try store.markTranscriptFailed(ids[2], reason: "The transcriber stopped.")
            try store.storeTranscript(ids[3], segments: [])
        }) { _, window, ids in
            let said = try Self.row(window, ids[0])
            XCTAssertTrue(Self.visible(said.transcriptView.widget))
            XCTAssertTrue(gtk_widget_is_visible(said.transcriptView.mark) != 0, "marked as a machine transcript")
            XCTAssertEqual(gtk_label_get_text(hark_label(said.transcriptView.mark)).map { String(cString: $0) },
                           "Automatic transcript")
            XCTAssertEqual(said.transcriptView.lineText, TranscriptDisplay.firstLine(of: Self.text))
            XCTAssertTrue(said.transcriptView.lineText.hasPrefix("Dentist moved to Thursday at 10. The car"))
            XCTAssertTrue(said.transcriptView.lineText.hasSuffix("…"), "more follows")
            XCTAssertNil(try Self.descriptionDiffers(said, "Transcript: \(Self.text) \(RowDescription.keys)"),
                         "a screen reader reads the whole transcript, then the keys")

            let states = [(ids[1], "Transcribing…", "Transcribing… "), (ids[2], "Transcript failed", "Transcript failed. "),
                          (ids[3], "No speech", "No speech. ")]
            for (id, words, said) in states {
                let row = try Self.row(window, id)
                XCTAssertTrue(Self.visible(row.transcriptView.widget), words)
                XCTAssertEqual(row.transcriptView.lineText, words)
                XCTAssertFalse(gtk_widget_is_visible(row.transcriptView.mark) != 0, "\(words): no transcript to mark")
                XCTAssertNil(try Self.descriptionDiffers(row, said + RowDescription.keys))
            }
            let broken = try Self.row(window, ids[2])
            XCTAssertEqual(gtk_widget_get_tooltip_text(broken.transcriptView.header).map { String(cString: $0) },
                           "The transcriber stopped.", "why it failed, on hovering")
            let old = try Self.row(window, ids[4])
            XCTAssertFalse(Self.visible(old.transcriptView.widget), "never transcribed: nothing under the waveform")
            XCTAssertNil(try Self.descriptionDiffers(old, RowDescription.keys))
        }
    }

    /// Words that came inside the message are marked as its sender's, not as made here.
    func testASendersTranscriptIsMarkedAsTheirs() throws {
        try withMessages(["Theirs", "Ours"], prepare: { store, ids in
            try store.storeSenderTranscript(ids[0], text: "Dentist moved to Thursday at 10.")
            try store.storeTranscript(ids[1], segments: Self.segments)
        }) { _, window, ids in
            let theirs = try Self.row(window, ids[0])
            XCTAssertEqual(gtk_label_get_text(hark_label(theirs.transcriptView.mark)).map { String(cString: $0) },
                           "Sender's transcript")
            XCTAssertEqual(gtk_widget_get_tooltip_text(theirs.transcriptView.mark).map { String(cString: $0) },
                           "Sent with the message by its sender")
            XCTAssertEqual(theirs.transcriptView.lineText, "Dentist moved to Thursday at 10.")
            let ours = try Self.row(window, ids[1])
            XCTAssertEqual(gtk_label_get_text(hark_label(ours.transcriptView.mark)).map { String(cString: $0) },
                           "Automatic transcript", "a recycled row is marked anew")
        }
    }

    func testTheWholeTranscriptOpensAndAClickOnASegmentSeeksThere() throws {
        try withMessages(["Said"], sink: "fakesink sync=true", prepare: { store, ids in
            try store.storeTranscript(ids[0], segments: Self.segments)
        }) { store, window, ids in
            let row = try Self.row(window, ids[0])
            let view = row.transcriptView
            XCTAssertTrue(view.segmentTexts.isEmpty, "closed: one line")
            try Self.click(view.header, until: { view.isExpanded })  // a click on the line
            XCTAssertEqual(view.segmentTexts, Self.segments.map { $0.text.trimmingCharacters(in: .whitespaces) })
            XCTAssertFalse(Self.visible(view.line), "the first line gives way to the whole")
            window.history?.apply(.changed(ids[0]))  // shown again (as when scrolled back to): still open
            XCTAssertTrue(row.transcriptView.isExpanded)

            // A click on the second segment, not playing: the message will play from there.
            try Self.click(view.segmentButtons[1], until: { row.shownTime == "0:01 / 0:03" })
            let message = try store.message(ids[0])
            XCTAssertEqual(window.playback?.position(of: message), 1)
            XCTAssertEqual(row.waveform.position, 1)
            XCTAssertNil(view.highlighted, "nothing is spoken while it does not play")

            // Playing from there: the segment spoken is highlighted.
            let playback = try XCTUnwrap(window.playback)
            playback.toggle(message)
            XCTAssertTrue(MainLoop.iterate(until: { playback.isPlaying }, timeout: 10), "it plays")
            XCTAssertTrue(MainLoop.iterate(until: { view.highlighted == 1 }, timeout: 5), "the second segment is spoken")
            XCTAssertEqual(view.segmentButtons.map { gtk_widget_has_css_class($0, "hark-segment-current") != 0 },
                           [false, true, false])
            // A click on the first while playing: it plays on from there.
            try Self.click(view.segmentButtons[0], until: { playback.position < 1 && view.highlighted == 0 },
                           "back to the first segment")
            playback.stop()
            settle(seconds: 0.2)
            XCTAssertNil(view.highlighted, "stopped: nothing highlighted")
            XCTAssertEqual(view.segmentButtons.filter { gtk_widget_has_css_class($0, "hark-segment-current") != 0 }.count, 0)

            // The row's menu closes it again; open, its item is ticked.
            XCTAssertEqual(try MenuReading.ticked(row), ["Show Whole Transcript"])
            gtk_widget_activate_action_variant(row.widget, MessageRow.transcriptToggleAction, nil)
            XCTAssertTrue(MainLoop.iterate(until: { !view.isExpanded }, timeout: 3))
            XCTAssertTrue(Self.visible(view.line))
            XCTAssertEqual(try MenuReading.ticked(row), [])
        }
    }

    /// Closed, the line follows the speech while the message plays, then
    /// rests on the first line again.
    func testWhileItPlaysTheClosedLineShowsTheSegmentSpoken() throws {
        try withMessages(["Said"], sink: "fakesink sync=true", prepare: { store, ids in
            try store.storeTranscript(ids[0], segments: Self.segments)
        }) { store, window, ids in
            let row = try Self.row(window, ids[0])
            let view = row.transcriptView
            let playback = try XCTUnwrap(window.playback)
            let spoken = { gtk_widget_has_css_class(view.line, "hark-segment-current") != 0 }
            XCTAssertFalse(spoken())
            playback.toggle(try store.message(ids[0]))
            XCTAssertTrue(MainLoop.iterate(until: { view.lineText == Self.segments[0].text && spoken() }, timeout: 5),
                          "the first segment, as it is spoken: \(view.lineText)")
            XCTAssertTrue(MainLoop.iterate(until: { view.lineText == Self.segments[1].text }, timeout: 5),
                          "then the second: \(view.lineText)")
            XCTAssertTrue(spoken())
            XCTAssertFalse(view.isExpanded, "it stays closed")
            playback.stop()
            XCTAssertTrue(MainLoop.iterate(until: { view.lineText == TranscriptDisplay.firstLine(of: Self.text) }, timeout: 3),
                          "stopped: the first line again")
            XCTAssertFalse(spoken())
        }
    }

    func testCopyTranscriptAndTheTranscribeItemsOfTheMenus() throws {
        try withMessages(["Said", "Old", "Older"], prepare: { store, ids in
            try store.storeTranscript(ids[0], segments: Self.segments)
        }) { store, window, ids in
            let said = try Self.row(window, ids[0])
            let old = try Self.row(window, ids[1])
            // Off: nothing offers to transcribe.
            XCTAssertFalse(g_action_group_get_action_enabled(OpaquePointer(window.window), MainWindow.transcribeAllAction) != 0)
            XCTAssertFalse(try MenuReading.items(Self.mainMenuButton(window)).contains("Transcribe All Messages"))
            XCTAssertEqual(try MenuReading.items(said).filter { $0.contains("Transcri") }, ["Show Whole Transcript", "Copy Transcript"])
            XCTAssertEqual(try MenuReading.items(old).filter { $0.contains("Transcri") }, [], "no transcript, and transcription is off")

            // Copy Transcript puts the words on the clipboard, as text.
            try XCTUnwrap(window.history).actions.activate(.copyTranscript, ids[0])
            XCTAssertTrue(MainLoop.iterate(until: { window.toastTexts.contains("Transcript of “Said” copied") }, timeout: 3))
            let clipboard = gtk_widget_get_clipboard(Widget.widget(window.window))
            let content = try XCTUnwrap(gdk_clipboard_get_content(clipboard), "the window's own content")
            var value = GValue()
            g_value_init(&value, hark_type_string())
            defer { g_value_unset(&value) }
            XCTAssertEqual(try withGError { gdk_content_provider_get_value(content, &value, $0) }, 1)
            XCTAssertEqual(g_value_get_string(&value).map { String(cString: $0) }, Self.text)

            // On: "Transcribe" on a message without a transcript, "Transcribe All" in the main menu.
            try store.setSetting(MessageStore.transcriptionSetting, "on")
            window.updateTranscriptionActions()
            XCTAssertTrue(g_action_group_get_action_enabled(OpaquePointer(window.window), MainWindow.transcribeAllAction) != 0)
            XCTAssertTrue(try MenuReading.items(Self.mainMenuButton(window)).contains("Transcribe All Messages"), "in the main menu")
            XCTAssertEqual(try MenuReading.items(old).filter { $0.contains("Transcri") }, ["Transcribe"])
            XCTAssertFalse(try MenuReading.items(said).contains("Transcribe"), "transcribed already")
            try XCTUnwrap(window.history).actions.activate(.transcribe, ids[1])
            XCTAssertTrue(MainLoop.iterate(until: { old.transcriptView.lineText == "Transcribing…" }, timeout: 3))
            XCTAssertEqual(try store.message(ids[1]).transcriptState, .queued)
            XCTAssertFalse(try MenuReading.items(old).contains("Transcribe"), "queued: nothing more to ask")

            g_action_group_activate_action(OpaquePointer(window.window), MainWindow.transcribeAllAction, nil)
            XCTAssertEqual(try store.message(ids[2]).transcriptState, .queued, "the one left is queued")
            XCTAssertEqual(try store.message(ids[0]).transcriptState, .done, "a transcript made is kept")
            XCTAssertEqual(try Self.row(window, ids[2]).transcriptView.lineText, "Transcribing…", "its row says so")
            XCTAssertEqual(window.toastTexts.last, "2 messages will be transcribed.", "with the one already waiting")

            try store.setSetting(MessageStore.transcriptionSetting, nil)
            window.updateTranscriptionActions()
            XCTAssertFalse(g_action_group_get_action_enabled(OpaquePointer(window.window), MainWindow.transcribeAllAction) != 0,
                           "off again: not offered")
        }
    }

    func testASearchShowsTheWordsItFoundInTheTranscriptBold() throws {
        try withMessages(["Said", "Other"], prepare: { store, ids in
            try store.storeTranscript(ids[0], segments: Self.segments)
            try store.storeTranscript(ids[1], segments: [TranscriptSegment(start: 0, end: 1, text: "Nothing to see.")])
        }) { _, window, ids in
            g_action_group_activate_action(OpaquePointer(window.window), "search", nil)
            gtk_editable_set_text(OpaquePointer(window.search.entry), "shopping")
            XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 1 }, timeout: 3), "found by a spoken word")
            settle()
            let row = try Self.row(window, ids[0])
            let view = row.transcriptView
            XCTAssertEqual(view.lineText, "…bag for the shopping. Call me back.", "the words around it")
            XCTAssertEqual(gtk_label_get_label(hark_label(view.line)).map { String(cString: $0) },
                           "…bag for the <b>shopping</b>. Call me back.")
            try Self.click(view.header, until: { view.isExpanded })
            let marked = try XCTUnwrap(view.segmentButtons[safe: 1].flatMap { gtk_button_get_child(hark_button($0)) })
            XCTAssertTrue(gtk_label_get_label(hark_label(marked)).map { String(cString: $0).contains("<b>shopping</b>") } ?? false,
                          "bold in the whole transcript too")
            try Self.click(view.header, until: { !view.isExpanded })

            gtk_editable_set_text(OpaquePointer(window.search.entry), "ten")
            // (The field is emptied first, which GTK says at once, and "ten" a moment later.)
            XCTAssertTrue(MainLoop.iterate(until: { window.history?.query?.words == ["ten"] }, timeout: 3))
            XCTAssertTrue(view.lineText.hasPrefix("Dentist moved to Thursday at 10."), view.lineText)
            XCTAssertTrue(gtk_label_get_label(hark_label(view.line)).map { String(cString: $0).contains("at <b>10</b>.") } ?? false,
                          "a number found by its word")

            window.search.close()
            XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 2 }, timeout: 3))
            // (The whole list's row: the results have a list of their own.)
            let shown = try Self.row(window, ids[0]).transcriptView
            XCTAssertEqual(shown.lineText, TranscriptDisplay.firstLine(of: Self.text), "no search: the first line, plain")
            XCTAssertFalse(gtk_label_get_label(hark_label(shown.line)).map { String(cString: $0).contains("<b>") } ?? true)
        }
    }

    /// A long transcript, on its line or open, asks for no more width than a
    /// row without one: at 360 and 480 px the window keeps its width and
    /// every row its place.
    func testALongTranscriptFitsEveryWidthTheOthersFit() throws {
        let long = (0..<12).map { TranscriptSegment(start: Double($0) * 0.25, end: Double($0 + 1) * 0.25,
                                                  text: "Segment \($0) of a transcript long enough to go past any window's edge on one line.") }
        for windowWidth: Int32 in [480, 360] {
            try withMessages(["Plain", "Long", "Open"], width: windowWidth, prepare: { store, ids in
                try store.storeTranscript(ids[1], segments: long)
                try store.storeTranscript(ids[2], segments: long)
            }) { _, window, ids in
                let open = try Self.row(window, ids[2])
                try Self.click(open.transcriptView.header, until: { open.transcriptView.isExpanded })
                settle(seconds: 0.5)
                XCTAssertLessThanOrEqual(gtk_widget_get_width(Widget.widget(window.window)), windowWidth,
                                         "the window keeps its width at \(windowWidth) px")
                let plain = try Self.row(window, ids[0])
                for id in ids[1...] {
                    let row = try Self.row(window, id)
                    XCTAssertEqual(gtk_widget_get_width(row.widget), gtk_widget_get_width(plain.widget),
                                   "as wide as a row without a transcript at \(windowWidth) px")
                    var minimum: Int32 = 0
                    gtk_widget_measure(row.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
                    XCTAssertLessThanOrEqual(minimum, windowWidth - 24, "the row can shrink to the window at \(windowWidth) px")
                }
            }
        }
    }

    func testATranscriptThatArrivesUpdatesOnlyItsOwnRow() throws {
        let tone = scratch.path("tone.ogg")
        try withMessages(["Said", "Neighbour"], prepare: { store, _ in
            try store.setSetting(MessageStore.transcriptionSetting, "on")
            // A recording still under its default title, the newest.
            let recording = try store.beginRecording(title: nil, at: Date())
            try FileManager.default.copyItem(atPath: tone, toPath: store.audioPath(of: recording))
            try store.finishRecording(recording.id, duration: 3, levels: LevelTrack())
        }) { store, window, ids in
            try store.queueTranscription([ids[0]])
            window.history?.apply(.changed(ids[0]))
            let row = try Self.row(window, ids[0])
            XCTAssertEqual(row.transcriptView.lineText, "Transcribing…")
            // The neighbour changes in the store too, unseen by the window.
            try store.rename(ids[1], to: "Renamed")
            try store.storeTranscript(ids[0], segments: Self.segments)
            window.transcription?.transcribed.send(ids[0])
            XCTAssertEqual(row.transcriptView.lineText, TranscriptDisplay.firstLine(of: Self.text), "its row shows it at once")
            XCTAssertNil(try Self.descriptionDiffers(row, "Transcript: \(Self.text) \(RowDescription.keys)"),
                         "and a screen reader reads it")
            XCTAssertEqual(try Self.row(window, ids[1]).message?.title, "Neighbour", "no other row was read again")

            // A message under its default title takes the first words said.
            let recording = try XCTUnwrap(window.history?.lastMessage)
            XCTAssertEqual(recording.title, "Voice message")
            try store.storeTranscript(recording.id, segments: [TranscriptSegment(start: 0, end: 2, text: "Pick up the parcel.")])
            window.transcription?.transcribed.send(recording.id)
            let recordingRow = try Self.row(window, recording.id)
            XCTAssertEqual(recordingRow.message?.title, "Pick up the parcel")
            let item = try XCTUnwrap(recordingRow.listItemWidget)
            let name = hark_accessible_check_string(UnsafeMutableRawPointer(item), GTK_ACCESSIBLE_PROPERTY_LABEL, "")
            defer { g_free(name) }
            XCTAssertTrue(name.map { String(cString: $0).hasPrefix("Pick up the parcel, ") } ?? false, "its row is named by it")
        }
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
