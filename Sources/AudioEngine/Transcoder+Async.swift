import Foundation

extension Transcoder {
    /// `transcode` on a thread of its own, for code on the main thread:
    /// cancelling the task stops it (and leaves no output file).
    public static func transcode(_ input: String, to output: String, format: AudioFormat) async throws(AudioError) {
        let cancelled = CancellationFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AudioError?, Never>) in
                let thread = Thread {
                    do throws(AudioError) {
                        try transcode(input, to: output, format: format, isCancelled: { cancelled.isSet })
                        continuation.resume(returning: nil)
                    } catch {
                        continuation.resume(returning: error)
                    }
                }
                thread.name = "hark-transcoder"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
        if let result { throw result }
    }

    /// `work` (a blocking conversion) on a thread of its own, for code on the
    /// main thread; what it threw is thrown here.
    public static func onThread(named name: String, _ work: @escaping @Sendable () throws(AudioError) -> Void) async throws(AudioError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<AudioError?, Never>) in
            let thread = Thread {
                do throws(AudioError) {
                    try work()
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
            thread.name = name
            thread.start()
        }
        if let result { throw result }
    }
}
