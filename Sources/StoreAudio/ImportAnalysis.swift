import AudioEngine
import Foundation
import Levels
import Localization
import MessageStore

extension MessageStore {
    /// Copies an audio file into the store, unchanged, with its levels.
    /// Blocking (the analysis): call it off the main thread in the app.
    public func importFile(_ path: String, title: String? = nil) throws(StoreError) -> Message {
        try checkWritable()  // before the analysis, which may take a while
        let analysis: Analysis
        do { analysis = try Analyzer.analyze(path: path) } catch {
            throw .notAudio(path: path, detail: Self.reason(error))
        }
        return try importFile(path, title: title, analysis: analysis)
    }

    /// Why a file could not be imported, in words for the user.
    public static func reason(_ error: Error) -> String {
        switch error as? AudioError {
        case .notAudio(_, let detail): return tr("it is not audio ({reason})", ["reason": detail])
        case .noAudio: return tr("it contains no audio")
        case .chainedOgg(_, let links):
            return trn("it is a chained Ogg file ({count} stream joined one after another), which Hark cannot play "
                           + "reliably; convert it into a single stream first",
                       "it is a chained Ogg file ({count} streams joined one after another), which Hark cannot play "
                           + "reliably; convert it into a single stream first", links)
        case .fileMissing: return tr("no such file")
        default: return "\(error)"
        }
    }
}
