import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
import HelperProcesses
import MessageStore
import Transcription
import XCTest
@testable import HarkUI

/// "Transcribe Messages…" with real widgets and the real installer: turning
/// it on shows the install's progress; without a network (pip pointed at an
/// index nobody answers) the dialog says so in a sentence and Try Again has
/// the keyboard focus, and tries again; nothing is turned on meanwhile.
final class TranscriptionDialogTests: XCTestCase {
    /// Sets `variables` in this process (the window's installer inherits
    /// them) for `body`, then puts back what was there.
    private func with(_ variables: [String: String], _ body: () throws -> Void) rethrows {
        let saved = variables.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        variables.forEach { setenv($0.key, $0.value, 1) }
        defer { saved.forEach { key, value in if let value { setenv(key, value, 1) } else { unsetenv(key) } } }
        try body()
    }

    private static func isShown(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_get_mapped(widget) != 0 }

    private static func text(_ label: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_label_get_text(hark_label(label)))
    }

    /// Runs the loop until the dialog shows a failure; the progress texts shown on the way.
    @MainActor
    private static func runUntilFailure(_ dialog: TranscriptionDialog) -> [String] {
        var shown: [String] = []
        let failed = MainLoop.iterate(until: {
            if isShown(dialog.progress.bar) {
                let line = text(dialog.progress.label) + " | "
                    + String(cString: gtk_progress_bar_get_text(OpaquePointer(dialog.progress.bar)))
                if shown.last != line { shown.append(line) }
            }
            return isShown(dialog.failureLabel)
        }, timeout: 300)
        XCTAssertTrue(failed, "\(shown)")
        return shown
    }

    func testWithoutANetworkTheInstallShowsProgressThenSaysWhyAndTryAgainHasTheFocus() throws {
        let engine = try ScratchFolder()
        try with(["HARK_TRANSCRIBER_DIR": engine.path("engine"), "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
                  "PIP_RETRIES": "0", "PIP_FIND_LINKS": ""]) {
            try onMainActor {
                try WindowFixture.withShownWindow { store, window in
                    // The main menu's "Transcribe Messages…".
                    XCTAssertEqual(gtk_widget_activate_action_variant(
                        UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWidget.self), "win.transcription", nil), 1)
                    let dialog = try XCTUnwrap(window.transcriptionDialog)
                    settle()
                    XCTAssertTrue(dialog.isOpen)
                    XCTAssertFalse(Self.isShown(dialog.progress.bar), "nothing under way before it is asked for")
                    XCTAssertFalse(Self.isShown(dialog.failureLabel))
                    XCTAssertEqual(gtk_switch_get_active(OpaquePointer(dialog.onSwitch)), 0)
                    XCTAssertEqual(dialog.selectedLanguage, .english)

                    gtk_widget_activate(dialog.onSwitch)  // as a click or Space on it
                    let shown = Self.runUntilFailure(dialog)
                    XCTAssertTrue(shown.contains { $0.hasPrefix("Preparing the engine…") }, "\(shown)")
                    XCTAssertTrue(shown.contains { $0.hasPrefix("Downloading") }, "\(shown)")
                    XCTAssertEqual(Self.text(dialog.failureLabel), InstallFailure.noNetwork.sentence)
                    XCTAssertFalse(Self.isShown(dialog.progress.bar))
                    XCTAssertEqual(gtk_window_get_focus(dialog.window), dialog.tryAgainButton, "Try Again has the focus")
                    XCTAssertEqual(gtk_switch_get_active(OpaquePointer(dialog.onSwitch)), 0, "not on")
                    XCTAssertFalse(store.transcribesNewMessages)
                    XCTAssertFalse(Engine.standard.isInstalled)
                    if let shot = ProcessInfo.processInfo.environment["HARK_SCREENSHOT"] {
                        settle(seconds: 0.3)
                        _ = try? ChildProcess.run("/usr/bin/import", ["-window", "root", shot])
                    }

                    // Try Again: the same install again, its progress shown again.
                    gtk_widget_activate(dialog.tryAgainButton)  // clicked a moment later, as GTK shows it pressed
                    settle(seconds: 0.5)
                    XCTAssertFalse(Self.isShown(dialog.failureLabel), "the old sentence goes as it tries again")
                    XCTAssertEqual(gtk_switch_get_active(OpaquePointer(dialog.onSwitch)), 1)
                    let again = Self.runUntilFailure(dialog)
                    XCTAssertFalse(again.isEmpty, "progress shown again")
                    XCTAssertEqual(Self.text(dialog.failureLabel), InstallFailure.noNetwork.sentence)
                    XCTAssertEqual(gtk_window_get_focus(dialog.window), dialog.tryAgainButton)
                    XCTAssertFalse(store.transcribesNewMessages)
                }
            }
        }
    }

    /// In a right-to-left language the introduction reads right to left,
    /// though it begins with the Latin "Hark" (Pango would take that word's
    /// direction for the whole paragraph).
    func testTheIntroductionTakesTheLanguagesDirection() throws {
        try onMainActor {
            gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
            defer { gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR) }
            try WindowFixture.withShownWindow { _, window in
                XCTAssertEqual(gtk_widget_activate_action_variant(
                    UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWidget.self), "win.transcription", nil), 1)
                let dialog = try XCTUnwrap(window.transcriptionDialog)
                defer { gtk_window_destroy(dialog.window) }
                settle(seconds: 0.3)
                let introduction = try XCTUnwrap(Widget.descendants(of: Widget.widget(dialog.window)).first {
                    Widget.typeName($0) == "GtkLabel"
                        && (gtk_label_get_text(hark_label($0)).map { String(cString: $0).contains("Hark can write") } ?? false)
                })
                XCTAssertEqual(pango_layout_get_direction(gtk_label_get_layout(hark_label(introduction)), 0), PANGO_DIRECTION_RTL)
            }
        }
    }

    /// Escape closes it, as GNOME's dialogs close (a real key press).
    func testEscapeClosesIt() throws {
        try onMainActor {
            try WindowFixture.withShownWindow { _, window in
                XCTAssertEqual(gtk_widget_activate_action_variant(
                    UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWidget.self), "win.transcription", nil), 1)
                let dialog = try XCTUnwrap(window.transcriptionDialog)
                settle(seconds: 0.5)
                XCTAssertTrue(dialog.isOpen)
                let found = try ChildProcess.run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^Transcribe Messages$"],
                                                 seconds: 15).output
                let xid = try XCTUnwrap(found.split(separator: "\n").first.map(String.init), "the dialog is on screen")
                _ = try ChildProcess.run("/usr/bin/xdotool", ["windowfocus", "--sync", xid], seconds: 15)
                settle(seconds: 0.3)
                _ = try ChildProcess.run("/usr/bin/xdotool", ["key", "--clearmodifiers", "Escape"], seconds: 15)
                XCTAssertTrue(MainLoop.iterate(until: { !dialog.isOpen }, timeout: 5), "Escape closed it")
            }
        }
    }

    func testWithTheEngineInstalledTurningOnAndTheLanguageTakeEffectAtOnceAndARecordingStartsTheHelper() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let installed = root + "/.build/transcriber"
        guard FileManager.default.fileExists(atPath: installed + "/whisper-base/hark-requirements.sha256") else {
            throw XCTSkip("the engine with its multilingual model is not installed in \(installed)")
        }
        try with(["HARK_TRANSCRIBER_DIR": installed]) {
            try onMainActor {
                try WindowFixture.withShownWindow { store, window in
                    window.openTranscriptionDialog()
                    let dialog = try XCTUnwrap(window.transcriptionDialog)
                    settle()
                    // Off: the language is only kept.
                    let german = try XCTUnwrap(TranscriptionLanguage.all.firstIndex(of: .fixed("de")))
                    adw_combo_row_set_selected(UnsafeMutableRawPointer(dialog.languageRow).assumingMemoryBound(to: AdwComboRow.self),
                                               UInt32(german))
                    settle()
                    XCTAssertEqual(store.transcriptionLanguage, "de")
                    XCTAssertFalse(store.transcribesNewMessages)
                    gtk_widget_activate(dialog.onSwitch)  // the switch turns when its animation ends
                    XCTAssertTrue(MainLoop.iterate(until: { store.transcribesNewMessages }, timeout: 5), "installed: on at once")
                    XCTAssertFalse(Self.isShown(dialog.progress.bar))
                    // The helper is found as `ps` would: a child of this process running the engine's script.
                    var helpers: [pid_t] { ProcessTable.helpers(running: Engine.standard.helperScript) }
                    XCTAssertEqual(helpers, [], "no helper before there is work")

                    // A recording starts the helper, so its model is loaded when it is saved.
                    let composer = try XCTUnwrap(window.composer)
                    composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                    composer.toggleRecording()
                    XCTAssertTrue(MainLoop.iterate(until: { composer.isRecording }, timeout: 10))
                    XCTAssertEqual(ProcessTable.helpers(running: Engine.standard.helperScript, atLeast: 1).count, 1,
                                   "started with the recording")
                    composer.toggleRecording()
                    XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10))

                    gtk_widget_activate(dialog.onSwitch)
                    XCTAssertTrue(MainLoop.iterate(until: { !store.transcribesNewMessages }, timeout: 5))
                    XCTAssertTrue(MainLoop.iterate(until: { helpers.isEmpty }, timeout: 10), "turned off: the helper ends")
                    XCTAssertEqual(store.transcriptionLanguage, "de", "the choice stays for the next time")
                }
            }
        }
    }
}
