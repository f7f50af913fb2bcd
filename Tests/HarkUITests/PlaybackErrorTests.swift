import AudioEngine
import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// A message that does not play says why in its toast's line, and one whose
/// file is gone shows as missing at once.
final class PlaybackErrorTests: XCTestCase {
    func testTheReasonIsInWords() {
        XCTAssertEqual(PlaybackProblem.sentence(title: "Parking spot", error: .outputUnavailable(detail: "Connection refused")),
                       "Cannot play “Parking spot”: no sound output")
        XCTAssertEqual(PlaybackProblem.sentence(title: "Parking spot", error: .fileMissing(path: "/x/1.ogg")),
                       "Cannot play “Parking spot”: its audio file is gone")
        let line = ToastText.brief(PlaybackProblem.sentence(title: "Parking spot", error: .outputUnavailable(detail: "x")))
        XCTAssertEqual(line.line, "Cannot play “Parking spot”: no sound output", "the reason stays on the toast's line")
        XCTAssertFalse(line.needsDetails)
    }

    /// Plays the first message through `sink` and returns what the window said.
    @MainActor
    private static func play(through sink: String, in folder: URL, before prepare: @escaping (MessageStore, Message) throws -> Void,
                      _ check: (MessageStore, MainWindow, Message) throws -> Void) throws {
        let tone = folder.appendingPathComponent("tone.ogg").path
        try WindowFixture.tone(tone, seconds: 2)
        let saved = PlaybackController.audioSink
        PlaybackController.audioSink = sink
        defer { PlaybackController.audioSink = saved }
        try WindowFixture.withWindow(storeIn: folder.appendingPathComponent("store"), before: { store in
            try store.importFile(tone, title: "Parking spot")
        }) { store, window, message in
            window.present()
            settle(seconds: 0.3)
            try prepare(store, message)
            let playback = try XCTUnwrap(window.playback)
            playback.toggle(message)
            XCTAssertTrue(MainLoop.iterate(until: { !window.toastTexts.isEmpty }, timeout: 10), "a toast says it did not play")
            try check(store, window, message)
        }
    }

    func testNoSoundOutputIsSaid() throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            // A sound server that is not there.
            try Self.play(through: "pulsesink server=unix:\(scratch.path("no-such-server"))", in: scratch.url, before: { _, _ in }) { store, window, message in
                XCTAssertEqual(window.toastTexts, ["Cannot play “Parking spot”: no sound output"])
                XCTAssertEqual(try store.message(message.id).state, .ready, "the file is there: not missing")
                XCTAssertNil(window.playback?.currentID)
            }
        }
    }

    func testAFileGoneTurnsItsMessageMissingAtTheFirstPlay() throws {
        let scratch = try ScratchFolder()
        try onMainActor {
            try Self.play(through: "fakesink sync=true", in: scratch.url, before: { store, message in
                try FileManager.default.removeItem(atPath: store.audioPath(of: message))  // behind Hark's back
            }) { store, window, message in
                XCTAssertEqual(window.toastTexts, ["Cannot play “Parking spot”: its audio file is gone"])
                XCTAssertEqual(try store.message(message.id).state, .missing, "missing at the first failed play")
                let row = try XCTUnwrap(window.history?.row(showing: message.id))
                XCTAssertEqual(row.message?.state, .missing)
                XCTAssertEqual(gtk_widget_get_visible(row.missing), 1, "the row says so")
            }
        }
    }
}
