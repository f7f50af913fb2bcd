import CAdwaita
import CGLib
import CGtk
import Drawing
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// The history is a readable column however wide the window, and each
/// message's waveform is as long as the message, as in messengers.
final class HistoryWidthTests: XCTestCase {
    /// How wide the waveform is drawn and takes clicks: the area, less the
    /// slider's margin.
    @MainActor
    private static func drawn(_ waveform: WaveformView) -> Int32 {
        gtk_widget_get_width(waveform.widget) - gtk_widget_get_margin_end(waveform.slider)
    }

    func testTheHistoryIsClampedAndWaveformsFollowTheirDuration() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        let (short, long) = (scratch.path("short.ogg"), scratch.path("long.ogg"))
        try WindowFixture.tone(short, seconds: 2)
        try WindowFixture.tone(long, seconds: 20)
        try onMainActor {
            var ids: (String, String)?
            for windowWidth: Int32 in [1200, 480, 360] {
                try WindowFixture.withWindow(storeIn: folder, before: { store in
                    if ids == nil { ids = (try store.importFile(short).id, try store.importFile(long).id) }
                    return try XCTUnwrap(ids)
                }) { _, window, ids in
                    gtk_window_set_default_size(window.window, windowWidth, 700)
                    window.present()
                    settle(seconds: 0.5)
                    let history = try XCTUnwrap(window.history)
                    let shortRow = try XCTUnwrap(history.row(showing: ids.0))
                    let longRow = try XCTUnwrap(history.row(showing: ids.1))
                    let rowWidth = gtk_widget_get_width(longRow.widget)
                    XCTAssertLessThanOrEqual(rowWidth, HistoryView.maximumWidth, "clamped at \(windowWidth) px")
                    XCTAssertLessThanOrEqual(rowWidth, windowWidth)
                    // The widths settle once the window has its size (a moment longer for a big one).
                    _ = MainLoop.iterate(until: {
                        windowWidth <= 400
                            || Self.drawn(shortRow.waveform) < Self.drawn(longRow.waveform)
                    }, timeout: 5)
                    let shortWave = Self.drawn(shortRow.waveform)
                    let longWave = Self.drawn(longRow.waveform)
                    XCTAssertGreaterThanOrEqual(Double(shortWave), WaveformWidth.minimum, "at \(windowWidth) px")
                    if windowWidth > 400 {
                        XCTAssertLessThan(shortWave, longWave, "2 s is shorter than 20 s at \(windowWidth) px")
                    } else {
                        XCTAssertLessThanOrEqual(shortWave, longWave, "at \(windowWidth) px")
                    }
                    // Every part of the row fits: nothing pushed out of the window.
                    XCTAssertLessThanOrEqual(longWave, rowWidth)
                    var natural: Int32 = 0, minimum: Int32 = 0
                    gtk_widget_measure(longRow.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
                    XCTAssertLessThanOrEqual(minimum, windowWidth - 24, "the row can shrink to the window at \(windowWidth) px")
                    XCTAssertGreaterThan(gtk_widget_get_width(longRow.waveform.widget), 0)
                }
            }
        }
    }

    @MainActor
    private static func bounds(_ widget: UnsafeMutablePointer<GtkWidget>, in window: MainWindow) -> graphene_rect_t {
        var rect = graphene_rect_t()
        _ = gtk_widget_compute_bounds(widget, Widget.widget(window.window), &rect)
        return rect
    }

    /// A message whose audio file is gone says so in its row, wrapped: the
    /// row asks for no more width than the others, so at 360 and 480 px the
    /// window keeps its width and every row its place (the sentence on one
    /// line once widened the whole history, and the window, to 569 px).
    func testAMissingMessageFitsEveryWidthTheOthersFit() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 3)
        try onMainActor {
            var ids: [String]?
            for windowWidth: Int32 in [480, 360] {
                try WindowFixture.withWindow(storeIn: folder, before: { store in
                    if ids == nil {
                        ids = try ["Parking spot", "Grandma's birthday", "Meeting notes"].map { try store.importFile(tone, title: $0).id }
                        let gone = try store.message(ids![1])
                        try FileManager.default.removeItem(atPath: store.audioPath(of: gone))
                        XCTAssertEqual(try store.recover(thorough: true).markedMissing, [gone.id])
                    }
                    return try XCTUnwrap(ids)
                }) { _, window, ids in
                    gtk_window_set_default_size(window.window, windowWidth, 700)
                    window.present()
                    settle(seconds: 0.5)
                    let history = try XCTUnwrap(window.history)
                    let rows = try ids.map { try XCTUnwrap(history.row(showing: $0)) }
                    let (missing, other) = (rows[1], rows[0])
                    XCTAssertEqual(gtk_widget_get_visible(missing.missing), 1, "the missing row says so")
                    XCTAssertEqual(gtk_widget_get_sensitive(missing.playButton), 0, "nothing to play")
                    XCTAssertEqual(gtk_widget_get_sensitive(other.playButton), 1)
                    // (Its frame's shadow is outside the width asked for.)
                    XCTAssertLessThanOrEqual(gtk_widget_get_width(Widget.widget(window.window)), windowWidth,
                                             "the window keeps its width at \(windowWidth) px")
                    var minimum: Int32 = 0, natural: Int32 = 0
                    gtk_widget_measure(missing.widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
                    XCTAssertLessThanOrEqual(minimum, windowWidth - 24, "the missing row can shrink to the window at \(windowWidth) px")
                    for row in rows {
                        let box = Self.bounds(row.widget, in: window)
                        let otherBox = Self.bounds(other.widget, in: window)
                        XCTAssertEqual(box.origin.x, otherBox.origin.x, "every row starts at the same place at \(windowWidth) px")
                        XCTAssertEqual(box.size.width, otherBox.size.width, "every row as wide at \(windowWidth) px")
                        XCTAssertLessThanOrEqual(box.origin.x + box.size.width, Float(windowWidth), "inside the window")
                        let play = Self.bounds(row.playButton, in: window)
                        XCTAssertGreaterThanOrEqual(play.origin.x, 0, "the play button is not cut at \(windowWidth) px")
                        XCTAssertEqual(play.origin.x, Self.bounds(other.playButton, in: window).origin.x,
                                       "play buttons in one column at \(windowWidth) px")
                    }
                    let sentence = Self.bounds(missing.missing, in: window)
                    let row = Self.bounds(missing.widget, in: window)
                    XCTAssertLessThanOrEqual(sentence.origin.x + sentence.size.width, row.origin.x + row.size.width,
                                             "the sentence is wrapped inside its row at \(windowWidth) px")
                }
            }
        }
    }

    /// At 360 px the titles read "Voic…", "Gra…" while the row had room:
    /// there the time and duration go under the title, which gets the row's
    /// width; wider, they stay beside it. A title still cut shows whole in
    /// its tooltip; one shown whole has none.
    func testTitlesGetTheRowsWidthAndACutTitleShowsWholeInItsTooltip() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        let tone = scratch.path("tone.ogg")
        try WindowFixture.tone(tone, seconds: 3)
        let titles = ["Voice message", "Grandma's birthday", "Meeting notes",
                      "Notes from the long meeting about the garden, the roof and the neighbours' new fence"]
        try onMainActor {
            var ids: [String]?
            for windowWidth: Int32 in [360, 480, 800] {
                try WindowFixture.withWindow(storeIn: folder, before: { store in
                    if ids == nil { ids = try titles.map { try store.importFile(tone, title: $0).id } }
                    return try XCTUnwrap(ids)
                }) { _, window, ids in
                    gtk_window_set_default_size(window.window, windowWidth, 700)
                    window.present()
                    settle(seconds: 0.5)
                    let history = try XCTUnwrap(window.history)
                    let rows = try ids.map { try XCTUnwrap(history.row(showing: $0)) }
                    _ = MainLoop.iterate(until: { rows.last?.titleLine.tooltip != nil }, timeout: 3)
                    for (row, title) in zip(rows, titles) {
                        let line = row.titleLine
                        var natural: Int32 = 0
                        gtk_widget_measure(line.title, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
                        let shown = gtk_widget_get_width(line.title)
                        let titleBox = Self.bounds(line.title, in: window), whenBox = Self.bounds(line.when, in: window)
                        let rowBox = Self.bounds(row.widget, in: window)
                        XCTAssertLessThanOrEqual(whenBox.origin.x + whenBox.size.width, rowBox.origin.x + rowBox.size.width,
                                                 "the time is inside its row at \(windowWidth) px")
                        if title == titles.last {
                            XCTAssertLessThan(shown, natural, "the long title is cut at \(windowWidth) px")
                            XCTAssertEqual(line.tooltip, title, "and shows whole in its tooltip at \(windowWidth) px")
                        } else {
                            XCTAssertGreaterThanOrEqual(shown, natural, "“\(title)” is whole at \(windowWidth) px")
                            XCTAssertNil(line.tooltip, "“\(title)” whole needs no tooltip at \(windowWidth) px")
                        }
                        if windowWidth == 360 {
                            XCTAssertGreaterThanOrEqual(whenBox.origin.y, titleBox.origin.y + titleBox.size.height - 0.5,
                                                        "the time goes under the title at 360 px")
                        } else {
                            XCTAssertLessThan(whenBox.origin.y, titleBox.origin.y + titleBox.size.height,
                                              "the time stays beside the title at \(windowWidth) px")
                            XCTAssertGreaterThanOrEqual(whenBox.origin.x, titleBox.origin.x + titleBox.size.width)
                        }
                    }
                    // Right to left (Persian), the title starts at the right and the time is at its left.
                    let line = try XCTUnwrap(rows.first).titleLine
                    gtk_widget_set_direction(line.widget, GTK_TEXT_DIR_RTL)
                    settle(seconds: 0.3)
                    let titleBox = Self.bounds(line.title, in: window), whenBox = Self.bounds(line.when, in: window)
                    let lineBox = Self.bounds(line.widget, in: window)
                    XCTAssertEqual(titleBox.origin.x + titleBox.size.width, lineBox.origin.x + lineBox.size.width, accuracy: 0.5,
                                   "right to left, the title ends at the right at \(windowWidth) px")
                    if windowWidth > 360 {
                        XCTAssertLessThanOrEqual(whenBox.origin.x + whenBox.size.width, titleBox.origin.x, "and the time is at its left")
                    } else {
                        XCTAssertEqual(whenBox.origin.x + whenBox.size.width, lineBox.origin.x + lineBox.size.width, accuracy: 0.5,
                                       "and the time under it, at the right")
                    }
                }
            }
        }
    }

    /// The time goes under the title only where the title would keep less
    /// than twice the time's width beside it.
    func testTheTimeGoesUnderTheTitleOnlyWhereTheRowIsNarrow() {
        XCTAssertTrue(TitleLine.stacks(width: 180, when: 90))
        XCTAssertFalse(TitleLine.stacks(width: 300, when: 90))
        XCTAssertTrue(TitleLine.stacks(width: 300, when: 120), "a larger font keeps the rule")
    }
}
