import AudioEngine
import Foundation
import HarkTestSupport
import MessageStore
import StoreAudio
import XCTest

/// A take cut (Send in a draft) or recorded on (Record in a draft) while its
/// first transcription runs: what the engine then says was made from audio
/// that is gone, and must not take the place of the transcript that follows
/// the new audio (or of its place in the queue). The engine's part is played
/// by the store's own queue calls, in the order the race makes them: the
/// transcriber claims the take (`nextQueuedTranscription`, noting its audio),
/// the take changes for real (GStreamer, SQLite), the old run ends.
final class StaleTranscriptTests: XCTestCase {
    private var scratch: ScratchFolder!

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    /// A tone of `seconds` between a second of silence at each end, as Ogg Opus.
    private func take(_ name: String, seconds: Double) throws -> String {
        let wav = scratch.path("\(name).wav")
        try WAVFile.write([.init(seconds: 1, amplitude: 0), .init(seconds: seconds, amplitude: 0.4),
                           .init(seconds: 1, amplitude: 0)], rate: 48_000, to: URL(fileURLWithPath: wav))
        let opus = scratch.path("\(name).ogg")
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! opusenc ! oggmux ! filesink location=\(opus)")
        return opus
    }

    private func transcribingStore() throws -> MessageStore {
        let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
        try store.setSetting(MessageStore.transcriptionSetting, "on")
        return store
    }

    /// What the engine said of the whole first take.
    private static let oldWords = [TranscriptSegment(start: 0.2, end: 0.9, text: " Uh, wait."),
                                   TranscriptSegment(start: 1, end: 3, text: " The dentist moved.")]

    @MainActor
    func testAResultForAudioCutMeanwhileIsDroppedAndTheTakeStaysQueued() async throws {
        let store = try transcribingStore()
        let id = try store.importFile(try take("cut", seconds: 2)).id
        let claimed = try XCTUnwrap(try store.nextQueuedTranscription())
        XCTAssertEqual(claimed.id, id)
        let given = store.audioIdentity(of: claimed)
        XCTAssertNotNil(given)

        let cut = try await store.trim(id, keeping: 0.5...3)
        XCTAssertTrue(cut, "Send cut it to its handles while the engine worked")
        XCTAssertFalse(try store.storeTranscript(id, segments: Self.oldWords, madeFrom: given), "the old run's words are dropped")
        var message = try store.message(id)
        XCTAssertEqual(message.transcriptState, .queued, "waiting for the new audio")
        XCTAssertNil(message.transcript)
        XCTAssertEqual(try store.searchIDs(SearchQuery("dentist"), in: .all), [])
        XCTAssertFalse(try store.markTranscriptFailed(id, reason: "stopped", madeFrom: given), "so is its failure")
        XCTAssertEqual(try store.message(id).transcriptState, .queued)

        // The next run is given the new audio, and its words are kept.
        let again = try XCTUnwrap(try store.nextQueuedTranscription())
        XCTAssertEqual(again.id, id)
        XCTAssertEqual(again.duration, 2.5, accuracy: 0.001)
        let words = [TranscriptSegment(start: 0.5, end: 2.5, text: " The dentist moved.")]
        XCTAssertTrue(try store.storeTranscript(id, segments: words, madeFrom: store.audioIdentity(of: again)))
        message = try store.message(id)
        XCTAssertEqual(message.transcriptState, .done)
        XCTAssertEqual(message.transcript, "The dentist moved.")
    }

    @MainActor
    func testAResultForTheFirstPartOfATakeRecordedOnIsDroppedAndTheWholeIsQueued() async throws {
        let store = try transcribingStore()
        let first = try store.importFile(try take("first", seconds: 1)).id
        let claimed = try XCTUnwrap(try store.nextQueuedTranscription())
        XCTAssertEqual(claimed.id, first)
        let given = store.audioIdentity(of: claimed)
        let part = try store.importFile(try take("part", seconds: 2))  // recorded on, in the draft

        let whole = try await store.append(part.id, to: first)
        XCTAssertEqual(whole.duration, claimed.duration + part.duration, accuracy: 0.001)
        XCTAssertFalse(try store.storeTranscript(first, segments: Self.oldWords, madeFrom: given),
                       "the first part's words are not the whole take's")
        let message = try store.message(first)
        XCTAssertEqual(message.transcriptState, .queued, "the whole take, again")
        XCTAssertNil(message.transcript)
        XCTAssertNil(try store.transcriptToSend(of: first), "no words of half the take go with it")
        XCTAssertEqual(try store.nextQueuedTranscription()?.id, first)
        XCTAssertEqual(try store.nextQueuedTranscription()?.duration ?? 0, whole.duration, accuracy: 0.001)
    }

    /// Queued while transcription was on, then turned off: recorded on, the
    /// take stays queued (its run is dropped, and the queue keeps it).
    @MainActor
    func testATakeQueuedStaysQueuedWhenRecordedOnWithTranscriptionOff() async throws {
        let store = try transcribingStore()
        let first = try store.importFile(try take("first", seconds: 1)).id
        let given = store.audioIdentity(of: try store.message(first))
        try store.setSetting(MessageStore.transcriptionSetting, nil)
        let part = try store.importFile(try take("part", seconds: 1)).id
        _ = try await store.append(part, to: first)
        XCTAssertFalse(try store.storeTranscript(first, segments: Self.oldWords, madeFrom: given))
        XCTAssertEqual(try store.message(first).transcriptState, .queued)
    }
}
