import AudioEngine
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

/// "Reduce Background Noise" in the microphone menu, and the composer's
/// notices about the microphone, in a real window over a real store.
final class VoiceSettingTests: XCTestCase {
    @MainActor
    private static func isOn(_ window: MainWindow) -> Bool { window.microphones?.reducesNoise ?? false }

    func testReduceBackgroundNoiseIsOnByDefaultTogglesFromTheMenuAndIsRemembered() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                let menu = try XCTUnwrap(window.microphones)
                XCTAssertTrue(Self.isOn(window), "on by default")
                XCTAssertTrue(window.composer?.voiceProcessing() ?? false, "the next recording is processed")
                XCTAssertEqual(g_action_group_get_action_enabled(OpaquePointer(window.window), "reduce-noise"), 1)
                XCTAssertNil(menu.unavailableLabel, "nothing to explain")
                // The menu item's action, as a click on it does.
                g_action_group_activate_action(OpaquePointer(window.window), "reduce-noise", nil)
                settle()
                XCTAssertFalse(Self.isOn(window))
                XCTAssertFalse(window.composer?.voiceProcessing() ?? true)
                XCTAssertEqual(store.setting(MicrophoneMenu.reduceNoiseSetting), "off")
            }
            // A restart keeps it off; turning it on again is remembered too.
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                XCTAssertFalse(Self.isOn(window), "remembered")
                g_action_group_activate_action(OpaquePointer(window.window), "reduce-noise", nil)
                settle()
                XCTAssertTrue(Self.isOn(window))
                XCTAssertNil(store.setting(MicrophoneMenu.reduceNoiseSetting))
            }
        }
    }

    func testWithoutTheElementTheItemIsInsensitiveSaysWhyAndRecordingIsUnprocessed() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try withGtk {
                let store = try MessageStore(folder: folder)
                let (window, app) = try WindowFixture.makeWindow(store)
                defer { gtk_window_destroy(window.window) }
                let bare = gtk_application_window_new(app.gtkApplication)!
                defer { gtk_window_destroy(hark_window(bare)) }
                let reason = "Needs the webrtcdsp element, which is not installed."
                let menu = MicrophoneMenu(window: UnsafeMutableRawPointer(bare), store: store,
                                          voiceProcessingUnavailable: reason)
                gtk_window_set_child(hark_window(bare), menu.button)
                gtk_window_present(hark_window(bare))
                settle()
                XCTAssertEqual(g_action_group_get_action_enabled(OpaquePointer(bare), "reduce-noise"), 0, "insensitive")
                let why = try XCTUnwrap(menu.unavailableLabel, "the menu says why")
                XCTAssertEqual(gtk_label_get_text(hark_label(why)).map { String(cString: $0) }, reason)
                XCTAssertEqual(gtk_widget_get_tooltip_text(why).map { String(cString: $0) }, reason)
                // It is in the menu: opening the menu shows it.
                gtk_menu_button_popup(OpaquePointer(menu.button))
                settle()
                XCTAssertEqual(gtk_widget_get_mapped(why), 1, "shown in the open menu")
                gtk_menu_button_popdown(OpaquePointer(menu.button))
                XCTAssertNil(store.setting(MicrophoneMenu.reduceNoiseSetting), "the user's choice is untouched")
                XCTAssertFalse(menu.reducesNoise, "so recordings are made unprocessed")
                let state = try XCTUnwrap(g_action_group_get_action_state(OpaquePointer(bare), "reduce-noise"))
                XCTAssertEqual(g_variant_get_boolean(state), 0, "shown unchecked")
                g_variant_unref(state)
            }
        }
    }

    func testASpeakerMonitorAsTheDefaultIsNamedInTheMenuAndTheComposer() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                let menu = try XCTUnwrap(window.microphones)
                let composer = try XCTUnwrap(window.composer)
                let monitor = AudioDevice(displayName: "Monitor of Built-in Audio", internalName: "speakers.monitor",
                                          isMonitor: true, isDefault: true)
                let microphone = AudioDevice(displayName: "Headset Microphone", internalName: "headset")
                // The window asks the (here absent) sound server first; what it found comes before ours.
                XCTAssertTrue(MainLoop.iterate(until: { menu.devices != nil }, timeout: 10), "the server was asked")
                menu.show([monitor, microphone])
                XCTAssertEqual(menu.inputLabels.first, "System Default (no microphone: records what plays)")
                XCTAssertTrue(composer.noticeText?.contains("records what the speakers play") ?? false,
                              "said before recording: \(String(describing: composer.noticeText))")

                // Chosen on purpose, the monitor is not warned about.
                g_action_group_activate_action(OpaquePointer(window.window), "microphone", g_variant_new_string("speakers.monitor"))
                settle()
                XCTAssertNil(composer.noticeText)
                g_action_group_activate_action(OpaquePointer(window.window), "microphone", g_variant_new_string(""))
                settle()
                XCTAssertNotNil(composer.noticeText)

                // A microphone becomes the default: nothing to say.
                menu.show([AudioDevice(displayName: monitor.displayName, internalName: monitor.internalName, isMonitor: true),
                           AudioDevice(displayName: microphone.displayName, internalName: microphone.internalName,
                                       isDefault: true)])
                XCTAssertEqual(menu.inputLabels.first, "System Default")
                XCTAssertNil(composer.noticeText)

                // A chosen headset unplugged falls back to the default: a monitor again.
                g_action_group_activate_action(OpaquePointer(window.window), "microphone", g_variant_new_string("headset"))
                menu.show([monitor])
                XCTAssertTrue(composer.noticeText?.contains("records what the speakers play") ?? false,
                              "\(String(describing: composer.noticeText))")

                // PipeWire names no default: inputs that are all monitors say the same.
                g_action_group_activate_action(OpaquePointer(window.window), "microphone", g_variant_new_string(""))
                menu.show([AudioDevice(displayName: monitor.displayName, internalName: monitor.internalName, isMonitor: true)])
                XCTAssertEqual(menu.inputLabels.first, "System Default (no microphone: records what plays)")
                XCTAssertNotNil(composer.noticeText)
                // No server at all: nothing known, nothing claimed (recording says what is wrong).
                menu.show([])
                XCTAssertNil(composer.noticeText)
            }
        }
    }

    /// Records from `source` in the window until `notice` appears (or 10 s
    /// pass), then stops; returns the saved message and the notice seen.
    @MainActor
    private static func record(in window: MainWindow, from source: String, until words: String, seconds: Double = 10)
        throws -> (notice: String?, message: Message?) {
        let composer = try XCTUnwrap(window.composer)
        composer.source = { (.pipeline(source), nil) }
        var saved: Message?
        let saving = composer.takesSaved.subscribe { saved = $0 }
        defer { saving.cancel() }
        composer.toggleRecording()
        XCTAssertTrue(composer.isRecording)
        _ = MainLoop.iterate(until: { composer.noticeText?.contains(words) ?? false }, timeout: seconds)
        let notice = composer.noticeText
        composer.stop()
        XCTAssertTrue(MainLoop.iterate(until: { !composer.isRecording }, timeout: 10), "the recording ended")
        XCTAssertNil(composer.noticeText, "the notice goes with the recording")
        return (notice, saved)
    }

    func testTheComposerNamesAQuietAndAClippingMicrophoneWhileRecording() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                let quiet = try Self.record(in: window, from: "audiotestsrc is-live=true volume=0.001", until: "very quiet")
                XCTAssertEqual(quiet.notice, "Your microphone is very quiet. Check that it is not muted and that its volume is up.")
                let clipping = try Self.record(in: window, from: "audiotestsrc is-live=true volume=1.0", until: "clipping")
                XCTAssertTrue(clipping.notice?.contains("too loud") ?? false, "\(String(describing: clipping.notice))")
                // Both were made with the setting on, and say so.
                for take in [quiet.message, clipping.message] {
                    let id = try XCTUnwrap(take?.id, "saved")
                    XCTAssertEqual(try store.message(id).voiceProcessed, true)
                }
                XCTAssertEqual(MessageRow.processingNote(true), "Recorded with background noise reduced")
                XCTAssertNil(MessageRow.processingNote(nil), "imports say nothing")
            }
        }
    }

    func testATakeWithTheSettingOffIsRememberedAsUnprocessed() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { store, window in
                g_action_group_activate_action(OpaquePointer(window.window), "reduce-noise", nil)
                settle()
                XCTAssertFalse(Self.isOn(window))
                let take = try Self.record(in: window, from: "audiotestsrc is-live=true volume=0.3", until: "(nothing)", seconds: 3)
                XCTAssertNil(take.notice, "an ordinary level is not warned about")
                XCTAssertEqual(try store.message(try XCTUnwrap(take.message?.id)).voiceProcessed, false)
            }
        }
    }
}
