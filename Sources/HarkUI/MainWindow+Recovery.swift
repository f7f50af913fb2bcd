import CGtk
import Foundation
import GLibSupport
import GtkSupport
import Localization
import MessageStore
import StoreAudio

/// The store's checks at start-up, on a thread of their own with their own
/// database connection, once the window has painted its first frame: the
/// window is usable at once, and the strip says what is happening when it
/// takes more than a moment.
extension MainWindow {
    /// Recovery shorter than this shows no strip (no flash at every start).
    static let recoveryStripDelayMilliseconds: UInt32 = 300

    /// `recoverInBackground` once the window's first frame is painted (the
    /// store was opened without its damage check: see HarkApplication).
    func recoverAfterFirstFrame() {
        FirstFrame.after(Widget.widget(window), lifetime: lifetime) { [weak self] in self?.recoverInBackground() }
    }

    /// First the quick check for damage (it reads every message: ~12 ms at
    /// 10,000), whose salvage is announced as soon as it is made; then the
    /// recovery of interrupted recordings and the files' comparison.
    func recoverInBackground(then completion: @escaping @MainActor (RecoveryReport?) -> Void = { _ in }) {
        guard let store else { return completion(nil) }
        let folder = store.folder
        // A store that can only be read is shown as it is, and says so once;
        // its repairs wait for a start where it can be written.
        guard store.access == .readWrite else {
            toast(store.access == .diskFull
                  ? tr("Your messages can be played and exported, but not changed: its disk is full.")
                  : tr("Your messages can be played and exported, but not changed: it is read-only."),
                  seconds: Self.problemSeconds)
            return completion(nil)
        }
        let delay = lifetime.timeout(milliseconds: Self.recoveryStripDelayMilliseconds) { [weak self] in
            self?.recoveryProgress.show(tr("Checking for interrupted recordings…"))
            return false
        }
        salvages.checksRunning += 1
        Task { [weak self] in
            let checked = await Self.offMainThread(folder) {
                MessageStore.pruneOutgoingCopies()  // copies handed out more than a day ago
                return try MessageStore(folder: folder).recovery  // checked for damage, salvaged if need be
            }
            self?.salvages.checksRunning -= 1
            guard let self, self.lifetime.isAlive else { return }  // the window closed meanwhile
            var result = checked
            if case .success(let found) = checked {
                self.announceCheckedSalvage(found)
                result = await Self.offMainThread(folder) {
                    try MessageStore(folder: folder, checkingForDamage: false).recover()
                }
            }
            delay?.remove()
            guard self.lifetime.isAlive else { return }
            self.recoveryProgress.hide()
            switch result {
            case .success(let report):
                if !report.isEmpty { self.history?.apply(.reloaded(showing: nil)) }
                if let summary = Self.summary(of: report) { self.toast(summary, seconds: MainWindow.problemSeconds) }
                completion(report)
            case .failure(let error):
                self.toast(tr("Interrupted recordings could not be checked: {reason}", ["reason": "\(error)"]), seconds: MainWindow.problemSeconds)
                completion(nil)
            }
        }
    }

    /// `work` on a thread of its own, its StoreError (or any other) as a failure.
    private nonisolated static func offMainThread(_ folder: URL,
                                                  _ work: @escaping @Sendable () throws -> RecoveryReport) async
        -> Result<RecoveryReport, StoreError> {
        await Task.detached { () -> Result<RecoveryReport, StoreError> in
            do {
                return .success(try work())
            } catch let error as StoreError {
                return .failure(error)
            } catch {
                return .failure(.file(path: folder.path, detail: "\(error)"))
            }
        }.value
    }

    /// What recovery did, in a sentence; nil when there is nothing to say.
    nonisolated static func summary(of report: RecoveryReport) -> String? { report.summary }
}
