import CCairo
import Drawing
import Foundation
import Levels
import MessageStore
import StoreAudio

// Measures (never asserts) the drawing code on image surfaces, as GTK would
// call it for one row of the history. Run by `make bench`.

func milliseconds(repeating count: Int, _ body: () -> Void) -> Double {
    body()  // warm up
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 / Double(count)
}

// `hark-bench search FOLDER`: searching a store (made by scripts/bench).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "search" {
    let store = try MessageStore(folder: URL(fileURLWithPath: CommandLine.arguments[2]))
    for (label, text) in [("a title word", "message 123"), ("a day", "yesterday"), ("no match", "zebra")] {
        var found = 0
        let time = milliseconds(repeating: 20) { found = (try? store.searchIDs(SearchQuery(text)).count) ?? -1 }
        print("  " + "search 10,000 messages: \(label)".padding(toLength: 44, withPad: " ", startingAt: 0)
              + String(format: " %6.2f ms  (%d found; goal: under 20 ms)", time, found))
    }
    exit(0)
}

// `hark-bench open SMALL LARGE TONE`: opening a store and reading its first
// page, as `hark list` does before anything else, for two stores (made by
// scripts/bench): quiet, right after one of Hark's own writes (an import of
// TONE, then its deletion: the folder changed, the count did not), and right
// after another program's change to the folder (whose comparison comes after
// the page, timed apart).
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "open" {
    let folders = CommandLine.arguments[2...3].map { URL(fileURLWithPath: $0) }
    let tone = CommandLine.arguments[4]
    func openAndPage(_ folder: URL) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        if let store = try? MessageStore(folder: folder, checkingForDamage: false) {  // as `hark list`
            _ = try? store.recoverInterruptedRecordings()
            try? store.eachListed(limit: 50) { _ in }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func timed(_ folder: URL, before: () -> Void) -> Double {
        median((0..<11).map { _ in before(); return openAndPage(folder) })
    }
    func ownWrite(_ folder: URL) {
        guard let store = try? MessageStore(folder: folder), let message = try? store.importFile(tone) else { return }
        try? store.delete(message.id)
    }
    var comparisons: [Double] = []
    func foreignWrite(_ folder: URL) {  // a note that is not audio, there one time and gone the next
        let target = folder.appendingPathComponent("messages/planted.txt").path
        if unlink(target) != 0 { _ = FileManager.default.createFile(atPath: target, contents: Data("not audio".utf8)) }
    }
    func line(_ label: String, _ value: Double, _ unit: String = "ms") {
        print("  " + label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: " %6.2f %@", value, unit))
    }
    for (name, before) in [("quiet", { (_: URL) in }), ("after Hark's write", ownWrite), ("after another's change", foreignWrite)] {
        _ = folders.map(openAndPage)  // warm up
        let small = timed(folders[0]) { before(folders[0]) }
        let large = timed(folders[1]) { before(folders[1]) }
        line("open + first page, 10, \(name)", small)
        line("open + first page, 10,000, \(name)", large)
        print("  " + "10,000 / 10".padding(toLength: 52, withPad: " ", startingAt: 0)
              + String(format: " %6.2f   (goal: under 1.2)", large / small))
    }
    // What the page no longer waits for: the quick check for damage, and the
    // comparison another's change needs.
    for (index, folder) in folders.enumerated() {
        var checks: [Double] = []
        comparisons = (0..<5).map { _ in
            foreignWrite(folder)
            guard let store = try? MessageStore(folder: folder, checkingForDamage: false) else { return 0 }
            var start = DispatchTime.now().uptimeNanoseconds
            _ = try? store.checkForDamage()
            checks.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            start = DispatchTime.now().uptimeNanoseconds
            _ = try? store.compareFiles()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        }
        let count = index == 0 ? "10" : "10,000"
        line("after the page, \(count): the damage check", median(checks))
        line("after the page, \(count): files compared", median(comparisons))
    }
    exit(0)
}

let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 600, 64)!
let cairo = cairo_create(surface)!
var generator = SystemRandomNumberGenerator()

// A 10-minute message: 12,000 levels of speech-like loudness.
let levels = (0..<12_000).map { _ in Double.random(in: -60 ... -6, using: &generator) }
let fractions = DisplayMapping.standard.fractions(levels)
let message = milliseconds(repeating: 200) {
    cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); cairo_paint(cairo); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
    WaveformPainter.draw(cairo, width: 600, height: 64, fractions: fractions, played: 0.37, hover: 0.5,
                         colors: WaveformColors(played: RGBA(hex: 0x3584E4), unplayed: RGBA(0, 0, 0, 0.44), background: nil))
}

// The same through the cache a history row keeps: the bars are rasterised
// into a mask once; each frame of a playing message is three masked fills.
let cache = WaveformCache()
let cachedMessage = milliseconds(repeating: 200) {
    cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); cairo_paint(cairo); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
    cache.draw(cairo, width: 600, height: 64, fractions: fractions, played: 0.37, hover: 0.5,
               colors: WaveformColors(played: RGBA(hex: 0x3584E4), unplayed: RGBA(0, 0, 0, 0.44), background: nil))
}

var live = LiveWaveform()
for _ in 0..<400 { live.append(Double.random(in: 0...1, using: &generator)) }
let liveAppend = milliseconds(repeating: 500) {
    live.append(Double.random(in: 0...1, using: &generator))
    cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); cairo_paint(cairo); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
    live.draw(cairo, width: 600, height: 64, color: RGBA(0, 0, 0))
}
// The same from the strip the recording window keeps: one new bar stroked
// and one blit through the fades.
let liveRaster = LiveWaveformRaster()
let liveRastered = milliseconds(repeating: 500) {
    live.append(Double.random(in: 0...1, using: &generator))
    cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR); cairo_paint(cairo); cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
    liveRaster.draw(cairo, waveform: live, width: 600, height: 64, color: RGBA(0, 0, 0))
}

cairo_destroy(cairo)
cairo_surface_destroy(surface)
func report(_ label: String, _ value: Double, goal: Double = 0.5) {
    print("  " + label.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: " %6.3f ms  (goal: under %.1f)", value, goal))
}
report("draw 600x64 waveform of 12,000 levels", message)
report("the same, cached as a history row draws it", cachedMessage, goal: 0.2)
report("append one live bar and redraw 600x64", liveAppend)
report("the same from the window's strip of bars", liveRastered, goal: 0.2)
