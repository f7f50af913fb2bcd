import CGtk
import Foundation
import GLibSupport
import MessageStore

/// Crash recovery at start-up, on a thread of its own with its own database
/// connection: the window is usable at once, and the strip says what is
/// happening when it takes more than a moment.
extension MainWindow {
    /// Recovery shorter than this shows no strip (no flash at every start).
    static let recoveryStripDelayMilliseconds: UInt32 = 300

    func recoverInBackground(then completion: @escaping @MainActor (RecoveryReport?) -> Void = { _ in }) {
        guard let store else { return completion(nil) }
        let folder = store.folder
        let delay = lifetime.timeout(milliseconds: Self.recoveryStripDelayMilliseconds) { [weak self] in
            self?.recoveryProgress.show("Checking for interrupted recordings…")
            return false
        }
        Task { [weak self] in
            let result = await Task.detached { () -> Result<RecoveryReport, StoreError> in
                MessageStore.pruneOutgoingCopies()  // copies handed out more than a day ago
                do {
                    return .success(try MessageStore(folder: folder).recover())
                } catch let error as StoreError {
                    return .failure(error)
                } catch {
                    return .failure(.file(path: folder.path, detail: "\(error)"))
                }
            }.value
            delay?.remove()
            guard let self, self.lifetime.isAlive else { return }  // the window closed meanwhile
            self.recoveryProgress.hide()
            switch result {
            case .success(let report):
                if !report.isEmpty { self.history?.reload() }
                if let summary = Self.summary(of: report) { self.toast(summary, seconds: MainWindow.problemSeconds) }
                completion(report)
            case .failure(let error):
                self.toast("Interrupted recordings could not be checked: \(error)", seconds: MainWindow.problemSeconds)
                completion(nil)
            }
        }
    }

    /// What recovery did, in a sentence; nil when there is nothing to say.
    nonisolated static func summary(of report: RecoveryReport) -> String? {
        var parts: [String] = []
        func count(_ number: Int, _ one: String, _ many: String) -> String { number == 1 ? one : "\(number) \(many)" }
        if !report.recoveredRecordings.isEmpty {
            parts.append(count(report.recoveredRecordings.count, "an interrupted recording was saved",
                               "interrupted recordings were saved"))
        }
        if !report.adoptedFiles.isEmpty {
            parts.append(count(report.adoptedFiles.count, "an audio file found in the messages folder was added",
                               "audio files found in the messages folder were added"))
        }
        if !report.linksLeftOut.isEmpty {
            parts.append(count(report.linksLeftOut.count, "a link in the messages folder to a file outside it was not added",
                               "links in the messages folder to files outside it were not added"))
        }
        if !report.markedMissing.isEmpty {
            parts.append(count(report.markedMissing.count, "a message's audio file is missing",
                               "messages' audio files are missing"))
        }
        guard var sentence = parts.first.map({ $0.prefix(1).uppercased() + $0.dropFirst() }) else { return nil }
        for part in parts.dropFirst() { sentence += "; " + part }
        return sentence + "."
    }
}
