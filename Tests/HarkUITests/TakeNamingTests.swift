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

/// Right after Stop the new take's title is offered for typing, with real
/// key presses (xdotool into Xvfb): Enter keeps what was typed; Esc, or
/// carrying on (recording again, focusing something else), keeps the title
/// it has; Record is never held up.
final class TakeNamingTests: XCTestCase {
    private static func xdotool(_ arguments: String...) throws {
        _ = try ChildProcess.run("/usr/bin/xdotool", arguments, seconds: 15)
    }

    @MainActor
    private static func press(_ key: String) throws {
        try xdotool("key", "--clearmodifiers", key)
        settle(seconds: 0.3)
    }

    /// Records a moment from a test source and stops with Ctrl+R, as a user would.
    @MainActor
    private static func recordATake(_ composer: ComposerView) throws {
        if !composer.isRecording { composer.toggleRecording() }
        XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 0.5 }, timeout: 10), "recording")
        try press("ctrl+r")
        XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording && composer.naming.isOffered }, timeout: 10),
                      "saved, and its title offered")
    }

    /// Whether the keyboard is in the naming field.
    @MainActor
    private static func namingHasFocus(_ window: MainWindow, _ composer: ComposerView) -> Bool {
        gtk_root_get_focus(OpaquePointer(window.window)).map {
            $0 == composer.naming.entry || gtk_widget_is_ancestor($0, composer.naming.entry) != 0
        } ?? false
    }

    func testANewTakesTitleIsOfferedForTypingRightAfterStop() throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url) { store, window in
                gtk_window_set_default_size(window.window, 480, 700)
                gtk_window_set_title(window.window, "Hark naming test")
                window.present()
                settle(seconds: 1)
                let xid = try ChildProcess.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "Hark naming test"],
                                               seconds: 15).output.split(separator: "\n").first.map(String.init)
                try Self.xdotool("windowfocus", "--sync", try XCTUnwrap(xid))
                settle(seconds: 0.3)
                let composer = try XCTUnwrap(window.composer)
                let history = try XCTUnwrap(window.history)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                // A keyboard user on Record.
                XCTAssertEqual(gtk_widget_grab_focus(composer.recordButton), 1)

                // Offered with the keyboard in it, the title selected: typing replaces it, Enter keeps it.
                try Self.recordATake(composer)
                let first = try XCTUnwrap(history.lastMessage)
                XCTAssertTrue(Self.namingHasFocus(window, composer), "the field has the keyboard")
                XCTAssertEqual(composer.naming.text, first.title)
                XCTAssertTrue(composer.recordIsSensitive, "Record is not held up")
                try Self.xdotool("type", "--delay", "30", "Parking spot")
                try Self.press("Return")
                XCTAssertEqual(try store.message(first.id).title, "Parking spot", "Enter keeps the name typed")
                XCTAssertFalse(composer.naming.isOffered)
                XCTAssertEqual(gtk_root_get_focus(OpaquePointer(window.window)), composer.recordButton,
                               "the keyboard goes back where it was (Record)")
                XCTAssertEqual(history.row(showing: first.id)?.titleLine.text, "Parking spot", "and the row shows it")

                // Esc keeps the title it has.
                try Self.recordATake(composer)
                let second = try XCTUnwrap(history.lastMessage)
                XCTAssertNotEqual(second.id, first.id)
                try Self.xdotool("type", "--delay", "30", "Not this")
                try Self.press("Escape")
                XCTAssertFalse(composer.naming.isOffered, "Esc closes the field")
                XCTAssertEqual(try store.message(second.id).title, second.title, "and keeps the title")
                XCTAssertFalse(try store.message(second.id).titleTyped)

                // Recording again keeps the title too, and records.
                try Self.recordATake(composer)
                let third = try XCTUnwrap(history.lastMessage)
                try Self.xdotool("type", "--delay", "30", "Half typed")
                try Self.press("ctrl+r")
                XCTAssertTrue(MainLoop.iterate(until: { composer.isRecording }, timeout: 5), "Ctrl+R records at once")
                XCTAssertFalse(composer.naming.isOffered)
                XCTAssertEqual(try store.message(third.id).title, third.title)

                // Going elsewhere (a click on a row focuses it) keeps it as well.
                try Self.recordATake(composer)
                let fourth = try XCTUnwrap(history.lastMessage)
                try Self.xdotool("type", "--delay", "30", "Left behind")
                XCTAssertTrue(MainLoop.iterate(until: { history.itemWidget(showing: first.id) != nil }, timeout: 3))
                XCTAssertEqual(gtk_widget_grab_focus(try XCTUnwrap(history.itemWidget(showing: first.id))), 1)
                settle(seconds: 0.3)
                XCTAssertFalse(composer.naming.isOffered, "leaving the field closes it")
                XCTAssertEqual(try store.message(fourth.id).title, fourth.title)
                XCTAssertEqual(try store.message(first.id).title, "Parking spot")
            }
        }
    }

    /// A transcript that titles the take while its title is offered: the
    /// caption says the title Esc keeps now, and the untouched field shows it.
    func testTheOfferedTitleFollowsATranscriptThatTitlesTheTake() throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url) { store, window in
                window.present()
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 0.5 }, timeout: 10), "recording")
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording && composer.naming.isOffered }, timeout: 10))
                let take = try XCTUnwrap(window.history?.lastMessage)
                XCTAssertEqual(composer.naming.text, take.title)

                try store.storeTranscript(take.id, segments: [TranscriptSegment(start: 0, end: 1, text: " Dentist moved to Thursday.")])
                let titled = try store.message(take.id).title
                XCTAssertNotEqual(titled, take.title, "the transcript titled it")
                try XCTUnwrap(window.transcription).transcribed.send(take.id)
                XCTAssertEqual(composer.naming.text, titled, "the field shows the title Esc keeps")
                let captions = Widget.descendants(of: composer.naming.widget).filter { Widget.typeName($0) == "GtkLabel" }
                    .compactMap { gtk_label_get_text(hark_label($0)).map { String(cString: $0) } }
                XCTAssertTrue(captions.contains(TakeNaming.captionText(keeping: titled)), "\(captions)")
            }
        }
    }
}
