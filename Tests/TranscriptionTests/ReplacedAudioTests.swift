import Foundation
import GLibSupport
import HarkTestSupport
import MessageStore
import StoreAudio
import Transcription
import XCTest

/// A take recorded on (Record in a draft) while the real helper transcribes
/// its first part: what the helper then says of the first part alone is not
/// the take's transcript; the whole take is transcribed again.
///
/// The race, made certain: the kernel tells (inotify) when the helper has
/// read the first part's file and closed it; the helper is held there
/// (SIGSTOP) while the part is joined for real, then goes on transcribing
/// the audio it read, which is no longer the take's.
final class ReplacedAudioTests: XCTestCase {
    /// The process to hold, once known (`.helperStarted`); read on the watching thread.
    private final class Held: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Int32?
        var pid: Int32? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// Waits on a thread of its own for the first reader of `path` to close
    /// it, stops `held` there, then calls `then` on the main loop.
    private static func holdAfterRead(of path: String, _ held: Held,
                                      then: @escaping @Sendable @MainActor () -> Void) throws {
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        XCTAssertGreaterThanOrEqual(watch, 0)
        XCTAssertGreaterThanOrEqual(inotify_add_watch(watch, path, UInt32(IN_CLOSE_NOWRITE)), 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(watch, &buffer, buffer.count)
            close(watch)
            if let pid = held.pid { kill(pid, SIGSTOP) }
            MainLoop.post(then)
        }
    }

    func testAResultForTheFirstPartOfATakeRecordedOnIsDroppedAndTheWholeTakeTranscribed() throws {
        try onMainActor {
            let spoken = try SpokenMessages()
            let first = try spoken.record(saying: "Remember to buy milk and bread on the way home.", asAMicrophone: false)
            let part = try spoken.record(saying: "The meeting about the new kitchen is moved to next week.", asAMicrophone: false)
            let store = try MessageStore(folder: spoken.storeFolder)
            try store.queueTranscription([first])
            let transcriber = Transcriber(store: store, engine: SpokenMessages.engine)
            var events: [Transcriber.Event] = []
            let held = Held()
            var joined: Message?
            var failure: StoreError?
            var stoppedAfterRead = false
            try Self.holdAfterRead(of: store.audioPath(of: try store.message(first)), held) {
                stoppedAfterRead = held.pid != nil && events.last == .started(messageID: first)
                Task { @MainActor in
                    do throws(StoreError) { joined = try await store.append(part, to: first) } catch { failure = error }
                    if let pid = held.pid { kill(pid, SIGCONT) }
                }
            }
            transcriber.onEvent = { event in
                events.append(event)
                if case .helperStarted(let pid) = event, held.pid == nil { held.pid = pid }
            }
            transcriber.wake()
            let settled: (Transcriber.Event) -> Bool = {
                if case .finished(first, let state) = $0 { return state != .queued }
                return false
            }
            XCTAssertTrue(MainLoop.iterate(until: { events.contains(where: settled) }, timeout: 600), "\(events)")
            transcriber.stop()

            XCTAssertTrue(stoppedAfterRead, "the helper read the first part alone, and was held there: \(events)")
            XCTAssertNil(failure)
            let whole = try XCTUnwrap(joined)
            XCTAssertTrue(events.contains(.finished(messageID: first, state: .queued)),
                          "the answer for the first part alone was dropped: \(events)")
            let message = try store.message(first)
            XCTAssertEqual(message.duration, whole.duration)
            XCTAssertEqual(message.transcriptState, .done, "\(events)")
            let words = message.transcript?.lowercased() ?? ""
            XCTAssertTrue(words.contains("milk") && words.contains("kitchen"), "both parts' words: \(words)")
        }
    }
}
