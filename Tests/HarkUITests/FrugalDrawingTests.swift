import AudioEngine
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
import StoreAudio
import XCTest

/// The levels the recording has had so far: the recorder's track, each
/// level handed to the composer as it is added.
@MainActor
private func levelsArrived(_ composer: ComposerView) -> Int { composer.recorder?.levels.count ?? 0 }

/// The window draws at the data's rate and only what changed: counted
/// draws and frames, never timings. A real window under Xvfb, a real store,
/// real recording (audiotestsrc) and playback (into a clocked fakesink).
final class FrugalDrawingTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws {
        scratch = try ScratchFolder()
    }

    /// Counts the frames a window's frame clock paints from now on.
    @MainActor
    private final class FrameCounter {
        private(set) var frames = 0
        init(_ window: UnsafeMutablePointer<GtkWidget>) {
            guard let clock = gtk_widget_get_frame_clock(window) else { return }
            Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in self?.frames += 1 }
        }
    }

    func testAnimationsStopTickingAndTheWindowStopsPaintingWhenTheyAreDone() throws {
        try onMainActor {
            try withGtk {
                let window = gtk_window_new()!
                defer { gtk_window_destroy(hark_window(window)) }
                let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
                let ring = CircularProgressView(size: 48)
                let strip = ProgressStrip()
                gtk_box_append(hark_box(box), ring.widget)
                gtk_box_append(hark_box(box), strip.widget)
                gtk_window_set_child(hark_window(window), box)
                gtk_window_present(hark_window(window))
                let ringDrawn = DrawCounter(ring)
                settle(seconds: 0.5)
                let counter = FrameCounter(window)

                ring.animate(from: 0, to: 1, duration: 0.3)
                XCTAssertTrue(ring.isAnimating)
                XCTAssertTrue(MainLoop.iterate(until: { !ring.isAnimating }, timeout: 20), "the ring's animation ends")
                XCTAssertEqual(ring.progress, 1)
                XCTAssertGreaterThan(counter.frames, 0, "the animation was painted")

                strip.show("Saving the recording…")
                XCTAssertTrue(strip.isAnimating, "the indeterminate bar sweeps while the work runs")
                settle(seconds: 0.3)
                strip.show("Importing", fraction: 0.5)
                XCTAssertFalse(strip.isAnimating, "a known fraction needs no sweep")
                strip.show("Saving the recording…")
                strip.hide()
                XCTAssertFalse(strip.isAnimating, "the work is done")
                settle(seconds: 1.5)  // the strip's slide away ends

                let ringDraws = ringDrawn.count, frames = counter.frames
                settle(seconds: 1)
                XCTAssertEqual(ringDrawn.count, ringDraws, "nothing draws the ring once its animation ended")
                XCTAssertEqual(counter.frames, frames, "with nothing changing, the window paints no frame")
            }
        }
    }

    func testRecordingDrawsTheLiveWaveformOncePerLevelAndLeavesTheHistoryAlone() throws {
        let folder = self.folder
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 2)
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder, before: { store in try store.importFile(tone) }) { _, window, _ in
                window.present()
                let composer = try XCTUnwrap(window.composer), history = try XCTUnwrap(window.history)
                XCTAssertTrue(MainLoop.iterate(until: { history.liveRows.contains { gtk_widget_get_mapped($0.waveform.widget) != 0 } },
                                               timeout: 20), "the history shows its message")
                let live = DrawCounter(composer.live), pulse = DrawCounter(composer.pulse), ring = DrawCounter(composer.ring)
                composer.source = { (.pipeline("audiotestsrc is-live=true wave=pink-noise volume=0.3"), nil) }
                composer.toggleRecording()
                defer { composer.cancel() }
                XCTAssertTrue(MainLoop.iterate(until: { levelsArrived(composer) >= 10 }, timeout: 30), "levels arrive")
                settle(seconds: 0.3)  // the composer has settled into its recording layout
                let rows = history.liveRows.map(ObjectIdentifier.init)
                let rowsDrawn = history.liveRows.map { DrawCounter($0.waveform) }
                let shownRows = zip(history.liveRows, rowsDrawn).filter { gtk_widget_get_mapped($0.0.waveform.widget) != 0 }
                XCTAssertTrue(MainLoop.iterate(until: { shownRows.allSatisfy { $0.1.count > 0 } }, timeout: 5),
                              "the draw that counting asked for")

                let levels = levelsArrived(composer), liveDraws = live.count
                let pulseDraws = pulse.count, ringDraws = ring.count
                let rowDraws = rowsDrawn.map(\.count)
                XCTAssertTrue(MainLoop.iterate(until: { levelsArrived(composer) >= levels + 40 }, timeout: 60),
                              "two seconds of levels arrive")
                let arrived = levelsArrived(composer) - levels
                let drawn = live.count - liveDraws
                XCTAssertGreaterThan(drawn, 0, "the live waveform follows the levels")
                XCTAssertLessThanOrEqual(drawn, arrived + 1, "the live waveform draws at most once per level")
                XCTAssertLessThanOrEqual(pulse.count - pulseDraws, arrived + 1,
                                         "the pulse draws at most once per level")
                XCTAssertLessThanOrEqual(ring.count - ringDraws, 1,
                                         "two seconds of 30 minutes move the ring by less than a pixel")
                XCTAssertEqual(history.liveRows.map(ObjectIdentifier.init), rows, "the history's rows stay")
                XCTAssertEqual(rowsDrawn.map(\.count), rowDraws,
                               "the history above the composer is not redrawn while recording")
            }
        }
    }

    /// The sound server hands over 100 ms at a time: two levels at once.
    /// Drawn as they arrive, the live waveform would move by two bars ten
    /// times a second; shown one per interval, the second of a pair waits
    /// its turn, and still every level is shown and drawn.
    func testLevelsArrivingInPairsAreShownOneAtATime() throws {
        let folder = self.folder
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                window.present()
                let composer = try XCTUnwrap(window.composer)
                // 4,800 samples at 48 kHz: 100 ms per buffer, two 50 ms levels each.
                composer.source = {
                    (.pipeline("audiotestsrc is-live=true wave=pink-noise volume=0.3 samplesperbuffer=4800"), nil)
                }
                let live = DrawCounter(composer.live)
                // The readings shown, each handed on to the composer's views.
                var levelsShown = 0
                let showLevel = composer.levels.show
                composer.levels.show = { reading in
                    levelsShown += 1
                    showLevel(reading)
                }
                composer.toggleRecording()
                defer { composer.cancel() }
                XCTAssertTrue(MainLoop.iterate(until: { levelsArrived(composer) >= 10 }, timeout: 30), "levels arrive")
                XCTAssertTrue(MainLoop.iterate(until: { levelsArrived(composer) > levelsShown }, timeout: 10),
                              "a level that arrived with another waits its turn")

                let levels = levelsArrived(composer), shown = levelsShown
                let liveDraws = live.count
                XCTAssertTrue(MainLoop.iterate(until: { levelsArrived(composer) >= levels + 40 }, timeout: 60),
                              "two seconds of levels arrive")
                let arrived = levelsArrived(composer) - levels
                XCTAssertGreaterThanOrEqual(levelsShown - shown, arrived - 2,
                                            "every level is shown (the last ones may still wait their turn)")
                XCTAssertGreaterThanOrEqual(4 * (live.count - liveDraws), 3 * arrived,
                                            "the live waveform is drawn once per level")
            }
        }
    }

    func testOnlyThePlayingRowIsDrawnWhileAMessagePlays() throws {
        let folder = self.folder
        let tones = try (0..<3).map { index in
            let path = scratch.path("tone\(index).ogg")
            try WindowFixture.tone(path, seconds: 6)
            return path
        }
        try onMainActor {
            let sink = PlaybackController.audioSink
            PlaybackController.audioSink = "fakesink sync=true"
            defer { PlaybackController.audioSink = sink }
            try WindowFixture.withWindow(storeIn: folder, before: { store in
                try tones.map { try store.importFile($0) }
            }) { _, window, messages in
                window.present()
                let history = try XCTUnwrap(window.history), playback = try XCTUnwrap(window.playback)
                XCTAssertTrue(MainLoop.iterate(until: {
                    history.liveRows.filter { gtk_widget_get_mapped($0.waveform.widget) != 0 }.count == 3
                }, timeout: 20), "the three rows are shown")
                let rowsDrawn = history.liveRows.map { ($0, DrawCounter($0.waveform)) }
                // The positions the player reports, each handed on to the history's playhead too.
                var positionsReceived = 0
                let counting = playback.positions.subscribe { _ in positionsReceived += 1 }
                defer { counting.cancel() }
                let playing = messages[1]
                playback.play(playing)
                defer { playback.stop() }
                XCTAssertTrue(MainLoop.iterate(until: { playback.isPlaying && positionsReceived >= 5 }, timeout: 30),
                              "it plays")
                settle(seconds: 0.2)

                @MainActor func draws() -> [String: Int] {
                    Dictionary(rowsDrawn.compactMap { row, drawn in row.message.map { ($0.id, drawn.count) } },
                               uniquingKeysWith: max)
                }
                let before = draws(), positions = positionsReceived
                XCTAssertTrue(MainLoop.iterate(until: { positionsReceived >= positions + 30 }, timeout: 30),
                              "a second of positions arrives")
                let after = draws(), arrived = positionsReceived - positions
                let playingDraws = (after[playing.id] ?? 0) - (before[playing.id] ?? 0)
                XCTAssertGreaterThan(playingDraws, 0, "the playing row's playhead moves")
                XCTAssertLessThanOrEqual(playingDraws, arrived + 1, "…at most once per position")
                for message in messages where message.id != playing.id {
                    XCTAssertEqual(after[message.id], before[message.id], "“\(message.title)” is not redrawn while another plays")
                }
            }
        }
    }
}
