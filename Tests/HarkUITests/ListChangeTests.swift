@testable import HarkUI
import Testing

/// The history splices only the run of items that changed.
struct ListChangeTests {
    @Test func onlyTheChangedMiddleIsReplaced() {
        let appended = ListChange(from: ["a", "b"], to: ["a", "b", "c"])
        #expect((appended.start, appended.removed, appended.inserted) == (2, 0, 2..<3), "a new message at the end")
        let undone = ListChange(from: ["a", "c"], to: ["a", "b", "c"])
        #expect((undone.start, undone.removed, undone.inserted) == (1, 0, 1..<2), "an undone deletion in the middle")
        let recording = ListChange(from: ["a", "b"], to: ["a", "b", "recording:"])
        #expect((recording.start, recording.removed, recording.inserted) == (2, 0, 2..<3))
        let saved = ListChange(from: ["a", "b", "recording:"], to: ["a", "b", "c"])
        #expect((saved.start, saved.removed, saved.inserted) == (2, 1, 2..<3), "the placeholder becomes the message")
        let searched = ListChange(from: ["a", "b", "c"], to: ["b"])
        #expect((searched.start, searched.removed, searched.inserted) == (0, 3, 0..<1))
        #expect(ListChange(from: ["a", "b"], to: ["a", "b"]).isEmpty)
        #expect(ListChange(from: [], to: []).isEmpty)
        let emptied = ListChange(from: ["a"], to: [])
        #expect((emptied.start, emptied.removed, emptied.inserted) == (0, 1, 0..<0))
    }
}
