import Foundation
import GLibSupport

/// A wait on GLib's loop that ends after a time, or sooner when woken (new
/// work queued) or when the waiting task is cancelled.
@MainActor
final class Waker {
    private var continuation: CheckedContinuation<Void, Never>?
    private var timer: Source?
    /// Woken while nobody waited: the next wait returns at once.
    private var pending = false

    /// Waits `seconds` (nil: until woken).
    func wait(seconds: TimeInterval?) async {
        if pending || Task.isCancelled {
            pending = false
            return
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                self.continuation = continuation
                if let seconds {
                    timer = MainLoop.timeout(milliseconds: UInt32(max(1, min(seconds, 86_400) * 1000))) { [weak self] in
                        self?.timer = nil
                        self?.resume()
                        return false
                    }
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.wake() }
        }
    }

    func wake() {
        if continuation == nil { pending = true }
        resume()
    }

    private func resume() {
        timer?.remove()
        timer = nil
        let waiting = continuation
        continuation = nil
        waiting?.resume()
    }
}
