import CCairo
import Drawing
import Foundation
import Levels
import MessageStore

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

cairo_destroy(cairo)
cairo_surface_destroy(surface)
func report(_ label: String, _ value: Double, goal: Double = 0.5) {
    print("  " + label.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: " %6.3f ms  (goal: under %.1f)", value, goal))
}
report("draw 600x64 waveform of 12,000 levels", message)
report("the same, cached as a history row draws it", cachedMessage, goal: 0.2)
report("append one live bar and redraw 600x64", liveAppend)
