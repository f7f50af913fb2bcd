import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// What a screen reader is given to say: dialog buttons by their words, the
/// position slider's value as a time, and each kind of row's own keys.
final class AccessibleTextTests: XCTestCase {
    /// nil when `widget`'s string `property` holds `expected`, else what it holds.
    @MainActor
    private static func differs(_ widget: UnsafeMutablePointer<GtkWidget>, _ property: GtkAccessibleProperty,
                                _ expected: String) -> String? {
        guard let found = hark_accessible_check_string(UnsafeMutableRawPointer(widget), property, expected) else { return nil }
        defer { g_free(found) }
        return String(cString: found)
    }

    func testMnemonicsAreNotRead() {
        XCTAssertEqual(ButtonNames.plainLabel("_Keep Recording"), "Keep Recording")
        XCTAssertEqual(ButtonNames.plainLabel("Save__as_2"), "Save_as2")
        XCTAssertEqual(ButtonNames.plainLabel("Close"), "Close")
    }

    func testDialogButtonsAreNamedByTheirWords() throws {
        try onMainActor {
            try WindowFixture.withShownWindow { _, window in
                let dialog = MessageDialogs.confirmDiscard(over: window.window, seconds: 12) {}
                defer { gtk_window_destroy(dialog) }
                settle()
                let buttons = Widget.descendants(of: Widget.widget(dialog)).filter {
                    Widget.typeName($0) == "GtkButton" && gtk_button_get_label(hark_button($0)) != nil
                }
                let labels = buttons.map { String(cString: gtk_button_get_label(hark_button($0))) }
                XCTAssertEqual(Set(labels), ["_Keep Recording", "_Discard"])
                for button in buttons {
                    let words = ButtonNames.plainLabel(String(cString: gtk_button_get_label(hark_button(button))))
                    XCTAssertNil(Self.differs(button, GTK_ACCESSIBLE_PROPERTY_LABEL, words), "named “\(words)”")
                }
            }
        }
    }

    func testThePositionReadsAsATime() throws {
        try onMainActor {
            try withGtk {
                let waveform = WaveformView()
                let holder = g_object_ref_sink(UnsafeMutableRawPointer(waveform.widget))
                defer { g_object_unref(holder) }
                waveform.duration = 14.2
                XCTAssertNil(Self.differs(waveform.slider, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, "0:00 of 0:14"))
                waveform.position = 3.1
                XCTAssertNil(Self.differs(waveform.slider, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, "0:03 of 0:14"),
                             "not the raw seconds")
            }
        }
    }

    func testEachKindOfRowSaysItsOwnKeys() throws {
        let scratch = try ScratchFolder()
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 1)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: scratch.url.appendingPathComponent("store"), before: { store in
                let ready = try store.importFile(tone, title: "Parking spot")
                let gone = try store.importFile(tone, title: "Dentist")
                try FileManager.default.removeItem(atPath: store.audioPath(of: gone))
                try store.recover(thorough: true)
                return (ready.id, gone.id)
            }) { _, window, ids in
                window.present()
                settle(seconds: 0.5)
                let history = try XCTUnwrap(window.history)
                let readyItem = try XCTUnwrap(history.row(showing: ids.0)?.listItemWidget)
                let goneItem = try XCTUnwrap(history.row(showing: ids.1)?.listItemWidget)
                XCTAssertNil(Self.differs(readyItem, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, RowDescription.keys))
                XCTAssertNil(Self.differs(goneItem, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, RowDescription.missingKeys),
                             "a missing message does not play")
                // Its menu: Copy and Export shown, greyed (no audio); the rest as for any message.
                let main = ["Rename…", "Copy", "Export…", "Delete"]
                let gone = try XCTUnwrap(history.row(showing: ids.1))
                XCTAssertEqual(try MenuReading.items(gone).filter(main.contains), main)
                XCTAssertEqual(try MenuReading.items(gone, choosable: true).filter(main.contains), ["Rename…", "Delete"])
                XCTAssertEqual(try MenuReading.items(XCTUnwrap(history.row(showing: ids.0)), choosable: true).filter(main.contains), main)
                history.showsRecording = true
                settle(seconds: 0.3)
                let takeItem = try XCTUnwrap(history.items.values.first { $0.key == HistoryItem.recordingKey }?.widget)
                XCTAssertNil(Self.differs(takeItem, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, RowDescription.recordingKeys),
                             "the take being recorded is no message")
                history.showsRecording = false
            }
        }
    }
}
