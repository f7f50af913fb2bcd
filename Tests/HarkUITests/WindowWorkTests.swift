import AudioEngine
import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import Levels
import MessageStore
import StoreAudio
import XCTest

/// The window's background work with a real store on disk and real audio:
/// recovery at start-up and imports, with their progress and messages.
final class WindowWorkTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws {
        scratch = try ScratchFolder()
    }

    /// A shown window over a store holding one second-long message with this title.
    private func withOneMessage(titled title: String,
                                _ body: @escaping @MainActor (MessageStore, MainWindow, Message) throws -> Void) throws {
        let folder = self.folder
        let path = scratch.path("tone.ogg")
        try WindowFixture.tone(path, seconds: 1)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                let message = try store.importFile(path)
                try store.rename(message.id, to: title)
                return try store.message(message.id)
            }) { (store: MessageStore, window: MainWindow, message: Message) in
                window.present()
                settle(seconds: 0.5)
                try body(store, window, message)
            }
        }
    }

    /// The local paths of the file list a content provider (a drag's, the clipboard's) offers.
    @MainActor
    private static func files(in content: UnsafeMutablePointer<GdkContentProvider>) throws -> [String] {
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        defer { g_value_unset(&value) }
        XCTAssertEqual(try withGError { gdk_content_provider_get_value(content, &value, $0) }, 1)
        let files = gdk_file_list_get_files(OpaquePointer(g_value_get_boxed(&value)))
        defer { g_slist_free(files) }
        var paths: [String] = []
        var node = files
        while let current = node {
            if let data = current.pointee.data, let path = FileChoosers.path(of: data) { paths.append(path) }
            node = current.pointee.next
        }
        return paths
    }

    func testAnInterruptedRecordingIsRecoveredInTheBackgroundAndAnnounced() throws {
        let folder = self.folder
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                let interrupted = try store.beginRecording()  // and then the app "crashed": no lock held
                try WindowFixture.tone(store.audioPath(of: interrupted), seconds: 2)
                return interrupted
            }) { store, window, interrupted in
                XCTAssertEqual(window.history?.count, 0, "a recording row is not a message yet")

                var report: RecoveryReport??
                window.recoverInBackground { report = .some($0) }
                XCTAssertTrue(MainLoop.iterate(until: { report != nil }, timeout: 20))
                XCTAssertEqual(report??.recoveredRecordings, [interrupted.id])
                XCTAssertEqual(window.history?.count, 1, "it is in the history now")
                XCTAssertEqual(try store.message(interrupted.id).duration, 2, accuracy: 0.05)
                XCTAssertTrue(window.toastTexts.contains("An interrupted recording was saved."), "\(window.toastTexts)")
                XCTAssertNil(window.recoveryProgress.text, "the strip is gone")
            }
        }
    }

    func testImportsShowProgressAndAFailureNamesItsFile() throws {
        let folder = self.folder
        let good = scratch.path("Long interview.ogg"), bad = scratch.path("shopping list.ogg")
        let made = scratch.path("tone.ogg")  // gst-launch's parser cannot take a space
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                try WindowFixture.tone(made, seconds: 60)
                try FileManager.default.moveItem(atPath: made, toPath: good)
                try Data("milk, eggs".utf8).write(to: URL(fileURLWithPath: bad))
                let importer = try XCTUnwrap(window.importer)
                let strip = try XCTUnwrap(Mirror(reflecting: importer).children.first { $0.label == "progress" }?.value as? ProgressStrip)

                importer.enqueue([bad, good])
                XCTAssertTrue(importer.isBusy)
                var texts: Set<String> = []
                var fractions: [Double] = []
                XCTAssertTrue(MainLoop.iterate(until: {
                    if let text = strip.text { texts.insert(text) }
                    if let fraction = strip.fraction { fractions.append(fraction) }
                    return !importer.isBusy
                }, timeout: 60))
                XCTAssertTrue(texts.contains("Importing “shopping list.ogg” (1 of 2)…"), "\(texts)")
                XCTAssertTrue(texts.contains("Importing “Long interview.ogg” (2 of 2)…"), "\(texts)")
                XCTAssertFalse(fractions.isEmpty, "a determinate bar once the fraction is known")
                XCTAssertEqual(fractions, fractions.sorted(), "progress only goes forward")
                XCTAssertNil(strip.text, "hidden when done")
                XCTAssertTrue(window.toastTexts.contains { $0.hasPrefix("“shopping list.ogg” could not be imported: it is not audio") },
                              "\(window.toastTexts)")
                XCTAssertTrue(window.toastTexts.contains("“Long interview” imported"), "\(window.toastTexts)")
                XCTAssertEqual(window.history?.count, 1)
                XCTAssertEqual(try store.list().map(\.title), ["Long interview"])
            }
        }
    }

    func testFilesDroppedOnTheWindowAreImported() throws {
        let folder = self.folder
        let dropped = scratch.path("dropped.ogg")
        try WindowFixture.tone(dropped, seconds: 2)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                // The window's drop target, as GTK finds it when files are dropped.
                let controllers = gtk_widget_observe_controllers(window.toasts)!
                defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
                let target = try XCTUnwrap((0..<g_list_model_get_n_items(controllers)).compactMap { index -> UnsafeMutableRawPointer? in
                    guard let item = g_list_model_get_item(controllers, index) else { return nil }
                    g_object_unref(item)  // the widget keeps it
                    let isDrop = g_type_check_instance_is_a(item.assumingMemoryBound(to: GTypeInstance.self), gtk_drop_target_get_type()) != 0
                    return isDrop ? item : nil
                }.first, "a drop target on the window")

                let file = g_file_new_for_path(dropped)!
                let list = g_slist_append(nil, UnsafeMutableRawPointer(file))
                let files = gdk_file_list_new_from_list(list)
                g_slist_free(list)
                g_object_unref(UnsafeMutableRawPointer(file))
                var value = GValue()
                g_value_init(&value, gdk_file_list_get_type())
                g_value_take_boxed(&value, UnsafeRawPointer(files))
                defer { g_value_unset(&value) }
                XCTAssertEqual(hark_test_emit_pointer_double_double(target, "drop", &value, 10, 10), 1, "accepted")

                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 1 }, timeout: 20), "imported")
                XCTAssertEqual(try store.list().map(\.title), ["dropped"])
            }
        }
    }

    /// Dragging a message's title out hands over a file: a readable copy in
    /// the cache named after the title (never the store's private file),
    /// offered as a file list and as text/uri-list.
    func testTheTitleDragsOutAReadableCopyNamedAfterTheMessage() throws {
        // (The cache is the test run's own: scripts/run-tests sets XDG_CACHE_HOME.
        // Never setenv here: GLib's threads read the environment meanwhile.)
        let outgoing = MessageStore.outgoingFolder.path + "/"
        try withOneMessage(titled: "Dentist at 5:15\u{202F}PM") { store, window, message in
            let label = try XCTUnwrap(Widget.descendants(of: Widget.widget(window.window)).first {
                Widget.typeName($0) == "GtkLabel" && String(cString: gtk_label_get_label(hark_label($0))) == message.title
            }, "the row's title")
            let controllers = gtk_widget_observe_controllers(label)!
            defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
            let source = try XCTUnwrap((0..<g_list_model_get_n_items(controllers)).compactMap { index -> UnsafeMutableRawPointer? in
                let item = g_list_model_get_item(controllers, index)!
                g_object_unref(item)
                let name = String(cString: g_type_name_from_instance(item.assumingMemoryBound(to: GTypeInstance.self)))
                return name == "GtkDragSource" ? item : nil
            }.first, "the title is a drag source")
            let provider = try XCTUnwrap(hark_test_emit_double_double_returning_pointer(source, "prepare", 5, 5),
                                         "a drag begins with content")
            defer { g_object_unref(provider) }
            let content = provider.assumingMemoryBound(to: GdkContentProvider.self)
            // The union takes the formats over (transfer full) and returns new ones.
            let mimeTypes = gdk_content_formats_union_serialize_mime_types(gdk_content_provider_ref_formats(content))!
            defer { gdk_content_formats_unref(mimeTypes) }
            XCTAssertEqual(gdk_content_formats_contain_mime_type(mimeTypes, "text/uri-list"), 1, "offered as text/uri-list")

            let files = try Self.files(in: content)
            XCTAssertEqual(files.count, 1)
            let dragged = try XCTUnwrap(files.first)
            XCTAssertEqual(URL(fileURLWithPath: dragged).lastPathComponent, "Dentist at 5.15 PM.ogg")
            XCTAssertTrue(dragged.hasPrefix(outgoing), dragged)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dragged)),
                           try Data(contentsOf: URL(fileURLWithPath: store.audioPath(of: message))), "the original audio")
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: dragged)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o044, 0o044, "readable by the app it is dropped on")
            let storeMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: store.audioPath(of: message))[.posixPermissions] as? Int)
            XCTAssertEqual(storeMode & 0o077, 0, "the store's own file stays private")
        }
    }

    /// Closing the Undo toast early (Esc, or a newer toast in its place)
    /// does not purge: Ctrl+Z still brings the message back, audio and all.
    func testADismissedUndoToastLeavesTheDeletionUndoable() throws {
        try withOneMessage(titled: "Keep me") { store, window, message in
            window.delete(message)
            XCTAssertEqual(window.history?.count, 0)
            let toast = try XCTUnwrap(window.pendingDeletions.last?.toast)
            adw_toast_dismiss(toast)
            settle(seconds: 0.3)
            XCTAssertEqual(try store.message(message.id).state, .deleted, "deleted softly")
            XCTAssertTrue(FileManager.default.fileExists(atPath: store.audioPath(of: message)), "its audio is kept")
            window.undoLastDeletion()
            XCTAssertEqual(try store.message(message.id).state, .ready, "Ctrl+Z brought it back")
            XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 1 }, timeout: 5))
        }
    }

    /// Ctrl+C on a focused message puts a readable, well-named copy on the clipboard.
    func testControlCCopiesTheFocusedMessageAsAFile() throws {
        try withOneMessage(titled: "Groceries / Monday") { store, window, message in
            let clipboard = gtk_widget_get_clipboard(Widget.widget(window.window))
            XCTAssertFalse(window.handleKey(UInt32(GDK_KEY_c), modifiers: GDK_CONTROL_MASK.rawValue),
                           "nothing focused: Ctrl+C is not the history's")
            let row = try XCTUnwrap(window.history?.row(showing: message.id))
            XCTAssertEqual(gtk_widget_grab_focus(try XCTUnwrap(row.listItemWidget)), 1, "a row takes the focus")
            XCTAssertTrue(window.handleKey(UInt32(GDK_KEY_c), modifiers: GDK_CONTROL_MASK.rawValue), "copied")
            let content = try XCTUnwrap(gdk_clipboard_get_content(clipboard), "the clipboard holds the window's content")
            let copied = try XCTUnwrap(try Self.files(in: content).first)
            XCTAssertEqual(URL(fileURLWithPath: copied).lastPathComponent, "Groceries - Monday.ogg")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copied)),
                           try Data(contentsOf: URL(fileURLWithPath: store.audioPath(of: message))))
        }
    }

    /// Ctrl+F's bar filters the history as one types, says when nothing
    /// matches, and gives the whole list back when closed.
    func testTheSearchBarFiltersTheHistoryAndClosesBackToIt() throws {
        let folder = self.folder
        let path = scratch.path("tone.ogg")
        try WindowFixture.tone(path, seconds: 1)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                // A minute apart (an import takes its file's date): "Groceries" between the others.
                for (index, title) in ["Dentist on Monday", "Groceries", "Café plans"].enumerated() {
                    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(Double(index - 3) * 60)],
                                                          ofItemAtPath: path)
                    let message = try store.importFile(path)
                    try store.rename(message.id, to: title)
                }
            }) { (store: MessageStore, window: MainWindow, _: Void) in
                window.present()
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 3 }, timeout: 5))
                g_action_group_activate_action(OpaquePointer(window.window), "search", nil)
                XCTAssertTrue(window.search.isOpen, "Ctrl+F's action opens the bar")
                gtk_editable_set_text(OpaquePointer(window.search.entry), "CAFE")
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 1 }, timeout: 5), "filtered as one types")
                XCTAssertEqual(window.visiblePage, "history")
                gtk_editable_set_text(OpaquePointer(window.search.entry), "zebra")
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 0 }, timeout: 5))
                XCTAssertEqual(window.visiblePage, "no-results", "an empty result says so")
                window.search.close()
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 3 }, timeout: 5), "closed: everything again")
                XCTAssertEqual(window.visiblePage, "history")
                XCTAssertEqual(window.search.text, "", "and the bar is empty for next time")

                // Esc closes it from a result too, and the result keeps the focus.
                g_action_group_activate_action(OpaquePointer(window.window), "search", nil)
                gtk_editable_set_text(OpaquePointer(window.search.entry), "groceries")
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 1 }, timeout: 5))
                let found = try XCTUnwrap(window.history?.liveRows.first { $0.message?.title == "Groceries" })
                XCTAssertEqual(gtk_widget_grab_focus(try XCTUnwrap(found.listItemWidget)), 1)
                XCTAssertTrue(window.handleKey(UInt32(GDK_KEY_Escape), modifiers: 0), "Esc is the search's")
                XCTAssertFalse(window.search.isOpen, "Esc on a result closes the search")
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 3 }, timeout: 5))
                let focus = try XCTUnwrap(gtk_root_get_focus(OpaquePointer(window.window)))
                XCTAssertEqual(window.history?.row(holding: focus)?.message?.title, "Groceries", "still on the message")
                XCTAssertFalse(window.handleKey(UInt32(GDK_KEY_Escape), modifiers: 0), "no search: Esc is not the history's")
            }
        }
    }

    /// Each day under its header; each row with its time of day and duration
    /// beside the title, so a renamed message keeps its date; a day's header
    /// goes with its last message.
    func testTheHistoryIsGroupedByDayAndRowsShowTheirTime() throws {
        let folder = self.folder
        let now = Date()
        let yesterday = Calendar.current.startOfDay(for: Calendar.current.date(byAdding: .day, value: -1, to: now)!)
        let days = [Calendar.current.date(byAdding: .day, value: -400, to: now)!,
                    yesterday.addingTimeInterval(10 * 3600), yesterday.addingTimeInterval(11 * 3600), now]
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                try days.map { day -> String in
                    let message = try store.beginRecording(title: "Note", at: day)
                    try store.finishRecording(message.id, duration: 19.4, levels: LevelTrack())
                    return message.id
                }
            }) { (store: MessageStore, window: MainWindow, ids: [String]) in
                window.present()
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 4 }, timeout: 5))
                settle(seconds: 0.5)
                @MainActor func shown(_ cssClass: String?) -> [String] {
                    Widget.descendants(of: Widget.widget(window.window))
                        .filter { Widget.typeName($0) == "GtkLabel" && gtk_widget_is_visible($0) != 0 }
                        .filter { cssClass == nil || gtk_widget_has_css_class($0, cssClass) != 0 }
                        .map { String(cString: gtk_label_get_label(hark_label($0))) }
                }
                XCTAssertEqual(shown("hark-day"), [DayGroups.title(of: Calendar.current.startOfDay(for: days[0])), "Yesterday", "Today"])
                let times = shown(nil).filter { $0.hasSuffix(" · 0:19") }
                XCTAssertEqual(times.count, 4, "every row shows its time and duration: \(shown(nil))")
                XCTAssertTrue(times.contains("\(DayGroups.clockTime(days[3])) · 0:19"))

                window.history?.apply(.removed(ids[1]))
                settle(seconds: 0.3)
                XCTAssertEqual(window.history?.count, 3)
                XCTAssertEqual(shown("hark-day").filter { $0 == "Yesterday" }.count, 1, "the day's next message takes its header")
                window.history?.apply(.removed(ids[2]))
                settle(seconds: 0.3)
                XCTAssertEqual(window.history?.count, 2)
                XCTAssertFalse(shown("hark-day").contains("Yesterday"), "an empty day loses its header")
            }
        }
    }

    func testAMessageWhoseAudioIsMissingSaysSoAndOffersDelete() throws {
        let folder = self.folder
        let path = scratch.path("gone.ogg")
        try WindowFixture.tone(path, seconds: 1)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                let message = try store.importFile(path)
                try FileManager.default.removeItem(atPath: store.audioPath(of: message))
                return message
            }) { store, window, message in
                window.present()
                var report: RecoveryReport??
                window.recoverInBackground { report = .some($0) }
                XCTAssertTrue(MainLoop.iterate(until: { report != nil }, timeout: 20))
                XCTAssertEqual(try store.message(message.id).state, .missing)
                XCTAssertTrue(window.toastTexts.contains("The audio file of “gone” is missing."),
                              "the message is named: \(window.toastTexts)")
                settle(seconds: 0.5)

                let shown = Widget.descendants(of: Widget.widget(window.window)).filter { gtk_widget_is_visible($0) != 0 }
                let labels = shown.filter { Widget.typeName($0) == "GtkLabel" }
                    .map { String(cString: gtk_label_get_label(hark_label($0))) }
                XCTAssertTrue(labels.contains("The audio file of this message is missing"), "\(labels)")
                let buttons = shown.filter { Widget.typeName($0) == "GtkButton" }
                let delete = try XCTUnwrap(buttons.first { gtk_button_get_label(hark_button($0)).map { String(cString: $0) } == "_Delete" },
                                           "a Delete button on the row")
                XCTAssertNotNil(window.history?.row(showing: message.id))
                gtk_widget_activate(delete)  // a button's activation is its click (after a 250 ms press)
                XCTAssertTrue(MainLoop.iterate(until: { window.history?.count == 0 }, timeout: 5), "deleted")
                XCTAssertEqual(try store.message(message.id).state, .deleted, "softly: Undo is offered")
            }
        }
    }

    func testAnExportNeverReplacesUnasked() throws {
        let folder = try ScratchFolder()
        let taken = folder.path("Memo.mp3")
        XCTAssertEqual(Exporter.unused(taken), taken)
        try Data().write(to: URL(fileURLWithPath: taken))
        XCTAssertEqual(Exporter.unused(taken), folder.path("Memo (2).mp3"))
        try Data().write(to: URL(fileURLWithPath: folder.path("Memo (2).mp3")))
        XCTAssertEqual(Exporter.unused(taken), folder.path("Memo (3).mp3"))
    }

    func testARecordingCutShortSaysWhyAndWhatWasSaved() {
        XCTAssertEqual(ComposerView.explain(.diskFull(path: "/x/y.ogg"), saved: 12.4),
                       "The disk is full, so the recording stopped; the 12 seconds recorded until then were saved. "
                       + "Free some space to record more.")
        XCTAssertEqual(ComposerView.explain(.deviceLost(detail: "gone"), saved: 61),
                       "The microphone was disconnected, so the recording stopped; "
                       + "the 1 minute 1 second recorded until then were saved.")
    }

    func testATakeWhoseMessageCouldNotBeWrittenSaysItsAudioIsKept() {
        let full = ComposerView.explainUnfinished(seconds: 24.2, interruption: .diskFull(path: "/x.ogg"),
                                                  error: StoreError.noSuchMessage("a"))
        XCTAssertEqual(full, "The disk is full, so the recording stopped. The 24 seconds recorded are kept in their file, "
                       + "and the message will be completed the next time Hark starts with space free.")
        let other = ComposerView.explainUnfinished(seconds: 24.2, interruption: nil, error: StoreError.noSuchMessage("a"))
        XCTAssertTrue(other.hasPrefix("The 24 seconds recorded are kept in their file, but the message could not be completed"))
    }

    func testRecoverySummaries() {
        XCTAssertNil(MainWindow.summary(of: RecoveryReport()))
        var report = RecoveryReport()
        report.recoveredRecordings = ["a", "b"]
        report.markedMissing = ["c"]
        report.missingTitles = ["Parking spot"]
        XCTAssertEqual(MainWindow.summary(of: report),
                       "2 interrupted recordings were saved; the audio file of “Parking spot” is missing.",
                       "the message is named")
        var several = RecoveryReport()
        several.markedMissing = ["c", "d", "e"]
        several.missingTitles = ["Parking spot", "Dentist", "Milk"]
        XCTAssertEqual(MainWindow.summary(of: several), "The audio files of 3 messages are missing.")
        var links = RecoveryReport()
        links.linksLeftOut = ["linked.ogg"]
        XCTAssertEqual(MainWindow.summary(of: links),
                       "A link in the messages folder to a file outside it was not added.")
    }
}
