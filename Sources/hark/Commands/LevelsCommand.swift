import AudioEngine
import Foundation
import Levels

/// `hark levels FILE --json`: the analyser's view of a file, as JSON.
func runLevels(path: String) -> Int32 {
    do {
        let analysis = try Analyzer.analyze(path: path)
        print(levelsJSON(analysis))
        return 0
    } catch {
        printFailure(error)
        return 1
    }
}

/// `{"interval_ms": 50, "duration_s": …, "rms_db": […], "peak_db": […]}`,
/// levels to a hundredth of a decibel.
func levelsJSON(_ analysis: Analysis) -> String {
    func list(_ values: [Double]) -> String {
        "[" + values.map { String(format: "%.2f", $0) }.joined(separator: ", ") + "]"
    }
    return "{\"interval_ms\": \(analysis.levels.intervalMilliseconds), "
        + "\"duration_s\": \(String(format: "%.3f", analysis.duration)), "
        + "\"rms_db\": \(list(analysis.levels.rms)), "
        + "\"peak_db\": \(list(analysis.levels.peak))}"
}
