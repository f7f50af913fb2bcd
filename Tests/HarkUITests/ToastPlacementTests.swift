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

/// Toasts float over the history, never over the composer, and a message
/// too long for a toast's line is readable in full.
final class ToastPlacementTests: XCTestCase {
    private static let importError =
        "“notes.txt” could not be imported: it is not audio (Could not determine type of stream)."

    func testALongMessageShowsItsGistAndTheRestBehindDetails() {
        XCTAssertEqual(ToastText.brief(Self.importError).line, "“notes.txt” could not be imported")
        XCTAssertTrue(ToastText.brief(Self.importError).needsDetails)
        XCTAssertEqual(ToastText.brief("“Dentist” imported").line, "“Dentist” imported")
        XCTAssertFalse(ToastText.brief("“Dentist” imported").needsDetails)
        let rambling = String(repeating: "word ", count: 30)
        let cut = ToastText.brief(rambling).line
        XCTAssertLessThanOrEqual(cut.count, ToastText.longest)
        XCTAssertTrue(cut.hasSuffix("word…"), "cut between words: \(cut)")
    }

    @MainActor
    private static func toplevels() -> [UnsafeMutablePointer<GtkWindow>] {
        guard let list = gtk_window_get_toplevels() else { return [] }
        return (0..<g_list_model_get_n_items(list)).compactMap { index in
            guard let item = g_list_model_get_item(list, index) else { return nil }
            g_object_unref(item)  // the list keeps it
            return item.assumingMemoryBound(to: GtkWindow.self)
        }
    }

    @MainActor
    private static func bounds(_ widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWindow>) -> graphene_rect_t {
        var rect = graphene_rect_t()
        _ = gtk_widget_compute_bounds(widget, Widget.widget(window), &rect)
        return rect
    }

    func testToastsSitOverTheHistoryAndAnErrorIsReadableInFull() throws {
        try onMainActor {
            try WindowFixture.withShownWindow { _, window in
                let composer = try XCTUnwrap(window.composer)
                XCTAssertEqual(gtk_widget_is_ancestor(composer.widget, window.toasts), 0, "the composer is not under toasts")

                window.toast(Self.importError, seconds: MainWindow.problemSeconds)
                settle(seconds: 0.5)
                let inToasts = Widget.descendants(of: window.toasts).filter { gtk_widget_is_visible($0) != 0 }
                let toast = try XCTUnwrap(inToasts.first { Widget.typeName($0) == "AdwToastWidget" }, "a toast is shown")
                let toastBox = Self.bounds(toast, in: window.window)
                let composerBox = Self.bounds(composer.widget, in: window.window)
                XCTAssertLessThanOrEqual(toastBox.origin.y + toastBox.size.height, composerBox.origin.y,
                                         "above the composer: \(toastBox) vs \(composerBox)")
                let details = try XCTUnwrap(Widget.descendants(of: toast).first {
                    Widget.typeName($0) == "GtkButton"
                        && gtk_button_get_label(hark_button($0)).map { String(cString: $0) } == "_Details"
                }, "a Details button")

                gtk_widget_activate(details)
                var dialog: UnsafeMutablePointer<GtkWindow>?
                XCTAssertTrue(MainLoop.iterate(until: {
                    dialog = Self.toplevels().first { Widget.typeName(Widget.widget($0)) == "AdwMessageDialog" }
                    return dialog != nil
                }, timeout: 5), "Details opens the whole message")
                if let dialog {
                    let body = adw_message_dialog_get_body(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self)).map { String(cString: $0) }
                    XCTAssertEqual(body, Self.importError)
                    gtk_window_destroy(dialog)
                }
            }
        }
    }

    func testARecordingProblemIsSaidInTheComposerUntilTheNextTake() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true ! no-such-element"), nil) }
                composer.toggleRecording()
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 5))
                let said = composer.noticeText ?? ""
                XCTAssertTrue(said.contains("no-such-element"), "the whole reason, in the composer: \(said)")
                XCTAssertEqual(gtk_widget_has_css_class(composer.notice, "error"), 1)
                XCTAssertFalse(window.toastTexts.contains(said), "not a toast over the history as well")

                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.toggleRecording()
                XCTAssertTrue(composer.isRecording)
                XCTAssertNil(composer.noticeText, "a new take starts afresh")
                composer.stop()
                XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10))
            }
        }
    }
}
