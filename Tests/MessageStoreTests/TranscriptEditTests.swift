import Foundation
import HarkTestSupport
import Levels
@testable import MessageStore
import XCTest

/// A take's transcript follows its audio: cut to a draft's handles, it keeps
/// the words said in what is kept (timed there); recorded on, the two parts'
/// transcripts are one, or the whole take is transcribed again.
final class TranscriptEditTests: XCTestCase {
    private var scratch: ScratchFolder!
    private var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    private func take(_ store: MessageStore, _ segments: [TranscriptSegment]?) throws -> String {
        let message = try store.beginRecording(title: "Errand", roomID: "!room")  // typed: the words never retitle it
        _ = FileManager.default.createFile(atPath: store.audioPath(of: message), contents: Data("OggS".utf8))
        try store.finishRecording(message.id, duration: 4, levels: LevelTrack())
        if let segments { try store.storeTranscript(message.id, segments: segments) }
        return message.id
    }

    /// New audio for take `id` (its content does not matter here).
    private func replace(_ store: MessageStore, _ id: String, duration: Double, _ change: MessageStore.AudioChange) throws {
        let path = store.replacementPath(of: try store.message(id))
        _ = FileManager.default.createFile(atPath: path, contents: Data("OggS".utf8))
        try store.replaceAudio(id, from: path, duration: duration, levels: LevelTrack(), change: change)
    }

    static let said = [TranscriptSegment(start: 0, end: 1, text: " Uh, wait."),
                       TranscriptSegment(start: 1.5, end: 3, text: " The dentist moved to Thursday."),
                       TranscriptSegment(start: 3, end: 4, text: " Call me.")]

    func testSegmentsOutsideWhatIsKeptGoAndTheRestAreTimedInIt() {
        XCTAssertEqual(TranscriptSegment.kept(Self.said, within: 1.25...3.5), [
            TranscriptSegment(start: 0.25, end: 1.75, text: " The dentist moved to Thursday."),
            TranscriptSegment(start: 1.75, end: 2.25, text: " Call me."),
        ])
        XCTAssertEqual(TranscriptSegment.kept(Self.said, within: 0...4), Self.said)
        XCTAssertEqual(TranscriptSegment.kept(Self.said, within: 3.9...4).map(\.text), [" Call me."])
    }

    func testACutTakeKeepsTheWordsSaidInWhatIsKept() throws {
        let store = try MessageStore(folder: folder)
        let id = try take(store, Self.said)
        try replace(store, id, duration: 2.5, .cut(1.25...3.75))
        let message = try store.message(id)
        XCTAssertEqual(message.transcript, "The dentist moved to Thursday. Call me.")
        XCTAssertEqual(message.transcriptSource, .local)
        XCTAssertEqual(try store.transcriptSegments(of: id).first?.start, 0.25)
        XCTAssertEqual(try store.searchIDs(SearchQuery("wait"), in: .all), [], "the false start's words went with it")
        XCTAssertEqual(try store.searchIDs(SearchQuery("dentist"), in: .all), [id])
        XCTAssertEqual(try store.transcriptToSend(of: id), "The dentist moved to Thursday. Call me.")

        let untranscribed = try take(store, nil)
        try replace(store, untranscribed, duration: 2, .cut(1...3))
        XCTAssertEqual(try store.message(untranscribed).transcriptState, TranscriptState.none, "nothing to follow")
    }

    func testATakeRecordedOnHasBothTranscriptsOrIsTranscribedAgain() throws {
        let store = try MessageStore(folder: folder)
        let first = try take(store, [TranscriptSegment(start: 0.5, end: 2, text: "The dentist moved.")])
        let part = try take(store, [TranscriptSegment(start: 0, end: 1, text: "To Thursday.")])
        try replace(store, first, duration: 8, .joined(next: part, offset: 4))
        XCTAssertEqual(try store.message(first).transcript, "The dentist moved. To Thursday.")
        XCTAssertEqual(try store.transcriptSegments(of: first).last, TranscriptSegment(start: 4, end: 5, text: "To Thursday."))

        try store.setSetting(MessageStore.transcriptionSetting, "on")
        let done = try take(store, [TranscriptSegment(start: 0, end: 2, text: "See you.")])
        let waiting = try take(store, nil)
        XCTAssertEqual(try store.message(waiting).transcriptState, .queued)
        try replace(store, done, duration: 8, .joined(next: waiting, offset: 4))
        let joined = try store.message(done)
        XCTAssertEqual(joined.transcriptState, .queued, "the whole take again")
        XCTAssertNil(joined.transcript)
        XCTAssertNil(try store.transcriptToSend(of: done), "no words of half the take go")
    }
}
