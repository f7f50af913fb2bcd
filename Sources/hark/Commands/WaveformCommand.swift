import AudioEngine
import Drawing
import Foundation
import Levels
import Localization
import MessageStore

/// `hark waveform FILE|ID --png OUT …`: a message's waveform as a PNG. A
/// message id uses the levels stored with it; a file is analysed. The image
/// goes where an export would (`ExportWriter`): a regular file only, an
/// existing one replaced only with `force`, by a rename.
func runWaveform(input: String, png: String, width: Int, height: Int, played: Double, style: String, dark: Bool,
                 force: Bool) -> Int32 {
    let levels: LevelTrack
    do {
        if !FileManager.default.fileExists(atPath: input), !input.contains("/") {
            guard let store = openStore() else { return 1 }
            defer { compareFilesAfterwards(store) }
            _ = try store.message(input)
            guard let stored = try store.levels(of: input) else {
                printFailure(tr("message {id} has no levels yet", ["id": input]))
                return 1
            }
            levels = stored
        } else {
            levels = try Analyzer.analyze(path: input).levels
        }
        try ExportWriter.write(to: png, overwrite: force) { file throws(StoreError) in
            do {
                try WaveformImage.writePNG(levels: levels, to: file.partialPath, width: width, height: height,
                                           played: played, style: WaveformStyle(rawValue: style) ?? .bars,
                                           colors: dark ? .dark : .light)
            } catch {
                throw .file(path: png, detail: "\(error)".replacingOccurrences(of: file.partialPath, with: png))
            }
        }
        return 0
    } catch {
        printFailure(error)
        return 1
    }
}
