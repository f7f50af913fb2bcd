import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
@testable import HarkUI
import MessageStore
import XCTest

/// `make bench`'s measure of the search in the window over a large store:
/// from the search text changing (when GTK's search delay has passed and
/// the bar hands the query on) to the list drawn with the results, and from
/// Esc to the whole list drawn again. It measures, never asserts a time:
/// skipped unless HARK_BENCH_SEARCH names a store folder (scripts/bench
/// makes one of 10,000 messages).
final class SearchTimingBenchTests: XCTestCase {
    func testBenchSearchingAndClosingTheSearch() throws {
        guard let folder = ProcessInfo.processInfo.environment["HARK_BENCH_SEARCH"] else {
            throw XCTSkip("a measurement for make bench (HARK_BENCH_SEARCH=STORE_FOLDER)")
        }
        let runs = Int(ProcessInfo.processInfo.environment["HARK_BENCH_RUNS"] ?? "") ?? 7
        try onMainActor {
            // The renderer Hark's window picks (cairo where OpenGL is drawn in software).
            try WindowFixture.withWindow(storeIn: URL(fileURLWithPath: folder), before: { _ in
                RendererChoice.preferCairoOverSoftwareOpenGL()
            }) { _, window, _ in
                gtk_window_set_default_size(window.window, 480, 700)
                window.present()
                let history = try XCTUnwrap(window.history)
                XCTAssertTrue(MainLoop.iterate(until: { history.count > 0 }, timeout: 30))
                settle(seconds: 1)
                let total = history.count
                let clock = try XCTUnwrap(gtk_widget_get_frame_clock(Widget.widget(window.window)))
                var paints: [UInt64] = []
                let painted = Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                    paints.append(DispatchTime.now().uptimeNanoseconds)
                }
                defer { Signal.disconnect(UnsafeMutableRawPointer(clock), painted) }
                // When the bar hands a query on (GTK's delay over), and when the history has taken it.
                var handed: (start: UInt64, end: UInt64)?
                let original = window.search.onQuery
                window.search.onQuery = { query in
                    let start = DispatchTime.now().uptimeNanoseconds
                    original(query)
                    handed = (start, DispatchTime.now().uptimeNanoseconds)
                }
                defer { window.search.onQuery = original }
                /// Milliseconds from the query handed on to the first frame painted after it was
                /// taken, and how many of them the history took to take it.
                @MainActor func drawn() -> (total: Double, work: Double)? {
                    guard MainLoop.iterate(until: { handed != nil }, timeout: 10), let handed,
                          MainLoop.iterate(until: { paints.contains { $0 > handed.end } }, timeout: 10),
                          let paint = paints.first(where: { $0 > handed.end }) else { return nil }
                    return (Double(paint - handed.start) / 1_000_000, Double(handed.end - handed.start) / 1_000_000)
                }
                func median(_ values: [Double]) -> Double {
                    values.isEmpty ? .nan : values.sorted()[values.count / 2]
                }
                let delay = gtk_search_entry_get_search_delay(OpaquePointer(window.search.entry))
                var cases: [(label: String, found: Int, search: [(total: Double, work: Double)],
                             back: [(total: Double, work: Double)])] = []
                for (label, text) in [("title", "message 4321"), ("many", "message 4"), ("none", "zebra")] {
                    var search: [(total: Double, work: Double)] = [], back: [(total: Double, work: Double)] = [], found = 0
                    for _ in 0..<runs {
                        g_action_group_activate_action(OpaquePointer(window.window), "search", nil)
                        settle(seconds: 0.3)
                        handed = nil
                        gtk_editable_set_text(OpaquePointer(window.search.entry), text)
                        if let time = drawn() { search.append(time) }
                        found = history.count
                        settle(seconds: 0.3)
                        handed = nil
                        window.search.close()
                        if let time = drawn() { back.append(time) }
                        XCTAssertEqual(history.count, total, "the whole list is back")
                        settle(seconds: 0.3)
                    }
                    cases.append((label, found, search, back))
                }
                // For comparison: a frame asked for with nothing changed.
                var frames: [Double] = []
                for _ in 0..<runs {
                    let asked = DispatchTime.now().uptimeNanoseconds
                    gtk_widget_queue_draw(Widget.widget(window.window))
                    if MainLoop.iterate(until: { paints.contains { $0 > asked } }, timeout: 5),
                       let paint = paints.first(where: { $0 > asked }) {
                        frames.append(Double(paint - asked) / 1_000_000)
                    }
                    settle(seconds: 0.2)
                }
                print(String(format: "BENCH frame-ms %.1f renderer %@", median(frames), RendererChoice.chosen ?? "GTK's choice"))
                for (label, found, search, back) in cases {
                    print(String(format: "BENCH search-ms %@ %.1f work %.1f found %d back-ms %.1f work %.1f of %d delay %u",
                                 label, median(search.map(\.total)), median(search.map(\.work)), found,
                                 median(back.map(\.total)), median(back.map(\.work)), total, delay))
                }
            }
        }
    }
}
