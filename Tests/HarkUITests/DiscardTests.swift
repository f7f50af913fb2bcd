import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import XCTest

/// Throwing a take away: the question holds the recording still and says
/// exactly what would be lost; whatever is thrown away can be undone.
final class DiscardTests: XCTestCase {
    @MainActor
    /// The texts shown: labels, and inscriptions (the recording clock is one).
    private static func labelTexts(_ root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        Widget.descendants(of: root).filter { gtk_widget_is_visible($0) != 0 }.compactMap { widget in
            switch Widget.typeName(widget) {
            case "GtkLabel": String(cString: gtk_label_get_text(hark_label(widget)))
            case "GtkInscription": gtk_inscription_get_text(OpaquePointer(widget)).map { String(cString: $0) }
            default: nil
            }
        }
    }

    func testTheQuestionPausesTheTakeSaysItsLengthAndKeepGoesOn() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                window.present()
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.confirmDiscardAfter = 1
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 1.3 }, timeout: 10))
                // A reading shown just before the press, of sound the pause then leaves out.
                composer.showClock(elapsed: composer.recordedSeconds + 0.7)
                let clockBefore = try XCTUnwrap(Self.labelTexts(composer.widget).first { $0.hasPrefix("0:") })
                composer.cancel()
                let question = try XCTUnwrap(composer.question, "more than a second would be lost: it asks")
                XCTAssertEqual(composer.recorder?.state, .paused, "held still while asked")
                let asked = composer.recordedSeconds
                settle(seconds: 1)
                XCTAssertEqual(composer.recordedSeconds, asked, "the clock does not run on behind the question")
                let body = adw_message_dialog_get_body(UnsafeMutableRawPointer(question).assumingMemoryBound(to: AdwMessageDialog.self))
                    .map { String(cString: $0) }
                let clock = try XCTUnwrap(Self.labelTexts(composer.widget).first { $0.hasPrefix("Paused") }, "and says Paused")
                XCTAssertEqual(clock, "Paused · " + clockBefore, "the clock does not go back")
                let shown = try XCTUnwrap(Int(clock.split(separator: ":").last ?? ""), clock)
                XCTAssertEqual(body, "The \(DurationText.spoken(Double(shown))) recorded so far will be lost.", "what the clock shows")

                // As its button does: the answer, then the dialog closes.
                adw_message_dialog_response(UnsafeMutableRawPointer(question).assumingMemoryBound(to: AdwMessageDialog.self), "keep")
                gtk_window_close(question)
                XCTAssertTrue(MainLoop.iterate(until: { composer.question == nil }, timeout: 5))
                XCTAssertEqual(composer.recorder?.state, .recording, "Keep Recording goes on")
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > asked + 0.3 }, timeout: 10))

                // Discard this time: thrown away, with Undo.
                composer.cancel()
                let again = try XCTUnwrap(composer.question)
                adw_message_dialog_response(UnsafeMutableRawPointer(again).assumingMemoryBound(to: AdwMessageDialog.self), "discard")
                gtk_window_close(again)
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10))
                XCTAssertTrue(window.toastTexts.contains("Recording discarded"), "\(window.toastTexts)")
                XCTAssertEqual(window.history?.count, 0)
                XCTAssertEqual(try store.list().count, 0)
                window.undoLastDeletion()
                XCTAssertEqual(try store.list().count, 1, "Undo keeps the take")
                XCTAssertEqual(window.history?.count, 1)
                XCTAssertGreaterThan(try store.list().first?.duration ?? 0, asked, "all of it")
            }
        }
    }

    /// The window closes while the question is up: the question goes with
    /// it, and the recording it held still is not resumed into the gone
    /// window's controls (a Gtk-CRITICAL, fatal here).
    func testClosingTheWindowWhileTheQuestionIsUpTouchesNoGoneControl() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                window.present()
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.confirmDiscardAfter = 0.5
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 0.8 }, timeout: 10))
                composer.cancel()
                XCTAssertNotNil(composer.question, "it asks")
                XCTAssertEqual(composer.recorder?.state, .paused)
            }  // the window is destroyed here, the question still up
            settle(seconds: 0.5)
        }
    }

    func testAShortTakeThrownAwayByEscapeCanBeUndone() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { composer.recordedSeconds > 0.5 }, timeout: 10))
                composer.cancel()  // what Esc does
                XCTAssertNil(composer.question, "too short to ask about")
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10))
                XCTAssertTrue(window.toastTexts.contains("Recording discarded"), "said, not silently gone: \(window.toastTexts)")
                XCTAssertEqual(try store.list().count, 0)
                window.undoLastDeletion()
                XCTAssertEqual(try store.list().count, 1)
            }
        }
    }
}
