import Foundation
import HarkTestSupport
import MessageStore
import XCTest

/// `hark transcribe`, `hark search`, `hark list --json` with the real engine
/// and model, on speech recorded through Hark's own Opus path.
final class TranscriptCommandTests: XCTestCase {
    private static let sentences = [
        "The dentist moved my appointment to Thursday at ten in the morning.",
        "Please bring the documents and the keys when you come home tonight.",
        "I will be at the train station in twenty minutes, wait for me there.",
    ]

    func testSpokenSentencesComeBackWithFewWordsWrongAndGiveDefaultTitlesTheirFirstWords() throws {
        let spoken = try SpokenMessages()
        let ids = try Self.sentences.map { try spoken.record(saying: $0) }
        let typed = try spoken.record(saying: "Call the plumber about the kitchen sink.", title: "Plumber")
        let (status, output) = try spoken.hark(["transcribe"] + ids + [typed])
        XCTAssertEqual(status, 0, output)
        let listed = try spoken.list()
        var errors = 0, said = 0
        for (id, sentence) in zip(ids, Self.sentences) {
            let message = try XCTUnwrap(listed[id])
            XCTAssertEqual(message.transcript_state, "done", output)
            let transcript = try XCTUnwrap(message.transcript)
            XCTAssertTrue(output.contains("\(id)\t\(transcript)"), "each transcript is printed: \(output)")
            let reference = WordErrorRate.words(sentence)
            errors += WordErrorRate.errors(reference: reference, hypothesis: WordErrorRate.words(transcript))
            said += reference.count
            // "Voice message" gives way to the first words, cut at a word.
            XCTAssertNotEqual(message.title, "Voice message")
            XCTAssertEqual(message.title, TitleFromWords.title(from: transcript))
            XCTAssertLessThanOrEqual(message.title.count, TitleFromWords.length + 1)
        }
        let rate = Double(errors) / Double(said)
        XCTAssertLessThan(rate, 0.25, "word error rate \(rate): \(output)")
        print("transcription: word error rate \(Int((rate * 100).rounded())) % over \(said) words")
        let plumber = try XCTUnwrap(listed[typed])
        XCTAssertEqual(plumber.title, "Plumber", "a typed title is never replaced")
        XCTAssertTrue(plumber.transcript?.lowercased().contains("plumber") ?? false, "\(plumber)")
    }

    func testSilenceAndNoiseGiveNoText() throws {
        let spoken = try SpokenMessages()
        let silence = try spoken.record(source: "audiotestsrc is-live=true wave=silence", duration: 6, raw: true)
        let noise = try spoken.record(source: "audiotestsrc is-live=true wave=pink-noise volume=0.2", duration: 6, raw: true)
        let (status, output) = try spoken.hark(["transcribe", silence, noise])
        XCTAssertEqual(status, 0, output)
        let listed = try spoken.list()
        for id in [silence, noise] {
            let message = try XCTUnwrap(listed[id])
            XCTAssertEqual(message.transcript_state, "empty", "\(message)")
            XCTAssertEqual(message.transcript, "")
            XCTAssertEqual(message.title, "Voice message", "nothing said: the title stays")
        }
    }

    func testSearchFindsASpokenWordThatIsNotInTheTitleAndNumbersBothWays() throws {
        let spoken = try SpokenMessages()
        // Raw: what is tested here is the index, not how the voice processing's
        // gain control takes a take's first words (see the test above).
        let station = try spoken.record(saying: Self.sentences[2], title: "Call from Anna", asAMicrophone: false)
        let other = try spoken.record(saying: Self.sentences[1], title: "Errands", asAMicrophone: false)
        let (status, output) = try spoken.hark(["transcribe", station, other])
        XCTAssertEqual(status, 0, output)
        let transcripts = try spoken.list().values.map { "\($0.title): \($0.transcript ?? "-")" }
        func found(_ words: String) throws -> [String] {
            let (status, output) = try spoken.hark(["search", words, "--json"])
            XCTAssertEqual(status, 0, output)
            struct Hit: Decodable { let id: String }
            let json = output.split(separator: "\n").filter { $0.hasPrefix("[") }.last.map(String.init) ?? "[]"
            return try JSONDecoder().decode([Hit].self, from: Data(json.utf8)).map(\.id)
        }
        XCTAssertEqual(try found("station"), [station], "\(transcripts)")
        XCTAssertEqual(try found("train minutes"), [station], "\(transcripts)")
        XCTAssertEqual(try found("twenty"), [station], "Whisper writes 20: found as a word too; \(transcripts)")
        XCTAssertEqual(try found("20"), [station], "\(transcripts)")
        XCTAssertEqual(try found("keys"), [other], "\(transcripts)")
        XCTAssertEqual(try found("documents"), [other], "\(transcripts)")
        XCTAssertEqual(try found("Anna"), [station], "titles are still searched")
        XCTAssertEqual(try found("giraffe"), [])
    }

    func testTranscribeWithoutTheEngineSaysSoAndFails() throws {
        let spoken = try SpokenMessages()
        let id = try spoken.record(source: "audiotestsrc is-live=true wave=silence", duration: 1)
        let missing = spoken.home.path("no-engine")
        let (status, output) = try ChildProcess.run(
            harkExecutable, ["transcribe", id],
            environment: ["XDG_DATA_HOME": spoken.home.url.path, "HARK_TRANSCRIBER_DIR": missing])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(output.contains("not installed"), output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "nothing installed behind the user's back")
    }
}
