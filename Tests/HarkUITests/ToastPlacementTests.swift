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
        let named = "The audio file of “Grandma’s birthday party at the lake house” is missing."
        XCTAssertEqual(ToastText.brief(named).line, named, "one sentence naming a long title: whole, wrapped")
        XCTAssertFalse(ToastText.brief(named).needsDetails)
        let rambling = String(repeating: "word ", count: 30)
        let cut = ToastText.brief(rambling).line
        XCTAssertLessThanOrEqual(cut.count, ToastText.longestWrapped)
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

    /// At 480 and 360 px a toast's line is whole, wrapped if need be: the
    /// file name it is about was cut ("“song.mp3” could not be import…").
    func testAToastIsNotCutAtNarrowWidths() throws {
        let scratch = try ScratchFolder()
        let lines = ["“song.mp3” could not be imported: it is not audio (Could not determine type of stream).",
                     "“m9” exported as m9-test-recording-final.ogg",
                     "The audio file of “Grandma’s birthday party at the lake house” is missing."]
        try onMainActor {
            for width: Int32 in [480, 360] {
                try WindowFixture.withWindow(storeIn: scratch.url) { _, window in
                    gtk_window_set_default_size(window.window, width, 640)
                    window.present()
                    settle(seconds: 0.3)
                    window.toast(lines[0], seconds: MainWindow.problemSeconds)
                    window.toast(lines[2], seconds: MainWindow.problemSeconds)
                    window.toast(lines[1], button: "Show in Files") {}
                    // The one with a button comes first (it answers what the user just did).
                    for line in [lines[1], ToastText.brief(lines[0]).line, lines[2]] {
                        var label: UnsafeMutablePointer<GtkWidget>?
                        XCTAssertTrue(MainLoop.iterate(until: {
                            label = Widget.descendants(of: window.toasts).first {
                                Widget.typeName($0) == "GtkLabel" && gtk_widget_get_mapped($0) != 0
                                    && String(cString: gtk_label_get_text(hark_label($0))) == line
                            }
                            return label != nil
                        }, timeout: 5), "the toast “\(line)” is shown at \(width) px")
                        guard let label else { continue }
                        settle(seconds: 0.3)
                        let layout = gtk_label_get_layout(hark_label(label))
                        XCTAssertEqual(pango_layout_is_ellipsized(layout), 0, "“\(line)” is whole at \(width) px")
                        // (Once the toast has come in.)
                        _ = MainLoop.iterate(until: {
                            let box = Self.bounds(label, in: window.window)
                            return box.origin.x + box.size.width <= Float(width)
                        }, timeout: 3)
                        let box = Self.bounds(label, in: window.window)
                        XCTAssertGreaterThanOrEqual(box.origin.x, 0)
                        XCTAssertLessThanOrEqual(box.origin.x + box.size.width, Float(width), "inside the window at \(width) px")
                        // Both toasts have been seen: the next one shows once this one goes.
                        var toast = gtk_widget_get_parent(label)
                        while let parent = toast, Widget.typeName(parent) != "AdwToastWidget" { toast = gtk_widget_get_parent(parent) }
                        if let toast {
                            let whole = Self.bounds(toast, in: window.window)
                            XCTAssertGreaterThanOrEqual(whole.origin.x, 0, "the toast starts inside at \(width) px")
                            XCTAssertLessThanOrEqual(whole.origin.x + whole.size.width, Float(width),
                                                     "and its buttons are inside at \(width) px")
                            let close = Widget.descendants(of: toast).last { Widget.typeName($0) == "GtkButton" }
                            if let close { _ = gtk_widget_activate(close) }
                        }
                    }
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
