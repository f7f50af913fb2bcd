@testable import MessageStore
import Testing

/// How a transcript is shown in a row, without a display: which segment is
/// spoken when, the first line, and the words a search found.
struct TranscriptDisplayTests {
    typealias Piece = TranscriptDisplay.Piece

    let segments = [TranscriptSegment(start: 0, end: 2.5, text: " Dentist moved to Thursday."),
                    TranscriptSegment(start: 2.5, end: 4, text: " At ten."),
                    TranscriptSegment(start: 6, end: 9.2, text: " Call her back.")]

    /// The pieces' marked words only.
    func matched(_ pieces: [Piece]?) -> [String] {
        (pieces ?? []).filter(\.matched).map(\.text)
    }

    func text(_ pieces: [Piece]?) -> String {
        (pieces ?? []).map(\.text).joined()
    }

    @Test func theSegmentSpokenAtATimeIsTheOneWhoseSpanHoldsIt() {
        #expect(TranscriptDisplay.segmentIndex(at: 0, in: segments) == 0)
        #expect(TranscriptDisplay.segmentIndex(at: 2.49, in: segments) == 0)
        #expect(TranscriptDisplay.segmentIndex(at: 2.5, in: segments) == 1, "a segment's end is the next one's start")
        #expect(TranscriptDisplay.segmentIndex(at: 5, in: segments) == nil, "a pause between two")
        #expect(TranscriptDisplay.segmentIndex(at: 6, in: segments) == 2)
        #expect(TranscriptDisplay.segmentIndex(at: 9.2, in: segments) == nil, "after the last")
        #expect(TranscriptDisplay.segmentIndex(at: -1, in: segments) == nil)
        #expect(TranscriptDisplay.segmentIndex(at: 1, in: []) == nil)
        let late = [TranscriptSegment(start: 1.5, end: 3, text: "Hi")]
        #expect(TranscriptDisplay.segmentIndex(at: 1, in: late) == nil, "before the first")
    }

    @Test func aLineFollowingTheSpeechKeepsTheLastSegmentThroughAPause() {
        #expect(TranscriptDisplay.lastStartedIndex(at: 0, in: segments) == 0)
        #expect(TranscriptDisplay.lastStartedIndex(at: 5, in: segments) == 1, "a pause: the one spoken last")
        #expect(TranscriptDisplay.lastStartedIndex(at: 6.5, in: segments) == 2)
        #expect(TranscriptDisplay.lastStartedIndex(at: 20, in: segments) == 2, "after the last")
        #expect(TranscriptDisplay.lastStartedIndex(at: -1, in: segments) == nil)
        #expect(TranscriptDisplay.lastStartedIndex(at: 1, in: [TranscriptSegment(start: 1.5, end: 3, text: "Hi")]) == nil)
        #expect(TranscriptDisplay.lastStartedIndex(at: 1, in: []) == nil)
    }

    @Test func theFirstLineIsCutAtAWordAndSaysWhenMoreFollows() {
        let long = "Dentist moved to Thursday at ten, so the car is free on Wednesday after all, call me back when you can."
        let line = TranscriptDisplay.firstLine(of: long, length: 40)
        #expect(line == "Dentist moved to Thursday at ten, so the…")
        #expect(TranscriptDisplay.firstLine(of: "  Call   her back. ", length: 40) == "Call her back.", "spaces evened")
        #expect(TranscriptDisplay.firstLine(of: "Call her back.", length: 40) == "Call her back.", "all of it: no “…”")
        #expect(TranscriptDisplay.firstLine(of: "First line.\nSecond line.", length: 40) == "First line.…",
                "the first line break ends it")
        #expect(TranscriptDisplay.firstLine(of: String(repeating: "a", count: 50), length: 40) == String(repeating: "a", count: 50),
                "one word longer than the line is kept whole (the label cuts it)")
        #expect(TranscriptDisplay.firstLine(of: "", length: 40) == "")
    }

    @Test func anExcerptShowsTheWordsASearchFoundMarked() {
        let transcript = "Hello, it's me again. I wanted to say that the dentist appointment moved to Thursday at ten, "
            + "and that the car is free on Wednesday after all, so call me back when you can."
        let pieces = TranscriptDisplay.excerpt(of: transcript, matching: ["dent"], length: 40)
        #expect(matched(pieces) == ["dentist"], "a word found by its start, without its punctuation")
        #expect(text(pieces) == "…say that the dentist appointment moved…", "a few words before it, cut at words")
        let early = TranscriptDisplay.excerpt(of: transcript, matching: ["again"], length: 40)
        #expect(text(early).hasPrefix("Hello, it's me again."), "an early match shows from the start")
        #expect(matched(early) == ["again"])
        #expect(TranscriptDisplay.excerpt(of: transcript, matching: ["zebra"]) == nil)
        #expect(matched(TranscriptDisplay.excerpt(of: transcript, matching: ["thursday", "call"], length: 200))
                == ["Thursday", "call"], "every searched word, case aside")
    }

    @Test func numbersAreFoundInBothForms() {
        #expect(matched(TranscriptDisplay.excerpt(of: "Meet at 10 tomorrow.", matching: ["ten"])) == ["10"])
        #expect(matched(TranscriptDisplay.excerpt(of: "Meet at ten tomorrow.", matching: ["10"])) == ["ten"])
        #expect(matched(TranscriptDisplay.excerpt(of: "Be there by 4:30, please.", matching: ["thirty"])) == ["4:30"])
        #expect(matched(TranscriptDisplay.excerpt(of: "Café at noon.", matching: ["cafe"])) == ["Café"], "accents aside")
        #expect(matched(TranscriptDisplay.excerpt(of: "Grandma's birthday.", matching: ["grandmas"])) == ["Grandma's"])
    }

    @Test func wordsOfScriptsWithoutSpacesAreFoundInsideARun() {
        let pieces = TranscriptDisplay.excerpt(of: "我们明天开会议好吗", matching: ["会议"])
        #expect(pieces == [Piece("我们明天开"), Piece("会议", matched: true), Piece("好吗")])
    }

    @Test func aWholeSegmentIsMarkedTheSameWay() {
        #expect(TranscriptDisplay.marked(" Dentist moved  to Thursday.", matching: ["thu"])
                == [Piece("Dentist moved to "), Piece("Thursday", matched: true), Piece(".")])
        #expect(TranscriptDisplay.marked("Dentist moved.", matching: []) == [Piece("Dentist moved.")])
    }
}
