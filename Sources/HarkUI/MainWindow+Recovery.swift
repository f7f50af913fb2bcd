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
        // A store that can only be read is shown as it is, and says so once;
        // its repairs wait for a start where it can be written.
        guard store.access == .readWrite else {
            let reason = store.access == .diskFull ? "its disk is full" : "it is read-only"
            toast("Your messages can be played and exported, but not changed: \(reason).", seconds: Self.problemSeconds)
            return completion(nil)
        }
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
    nonisolated static func summary(of report: RecoveryReport) -> String? { report.summary }
}
