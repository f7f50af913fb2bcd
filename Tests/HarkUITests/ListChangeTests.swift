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

    /// Closing a search puts back the messages around a result: every one
    /// kept stays (its row, and the keyboard focus on it), whatever its place.
    @Test func itemsAroundAKeptOneAreSplicedInWithoutReplacingIt() {
        func apply(_ splices: [ListChange.Splice], _ old: [String], _ new: [String]) -> [String] {
            var list = old
            for splice in splices {
                list.replaceSubrange(splice.start..<(splice.start + splice.removed), with: new[splice.inserted])
            }
            return list
        }
        let closed = ListChange.splices(from: ["b"], to: ["a", "b", "c"])
        #expect(closed == [.init(start: 0, removed: 0, inserted: 0..<1), .init(start: 2, removed: 0, inserted: 2..<3)])
        #expect(apply(closed!, ["b"], ["a", "b", "c"]) == ["a", "b", "c"])
        let many = ["a", "b", "c", "d", "e", "f", "g"]
        let kept = ["b", "e", "f"]
        let opened = ListChange.splices(from: kept, to: many)!
        #expect(opened.allSatisfy { $0.removed == 0 }, "nothing kept is replaced")
        #expect(apply(opened, kept, many) == many)
        let narrowed = ListChange.splices(from: many, to: kept)!
        #expect(narrowed.allSatisfy { $0.inserted.isEmpty })
        #expect(apply(narrowed, many, kept) == kept)
        #expect(ListChange.splices(from: ["a", "b"], to: ["b", "a", "c"]) == nil, "not one within the other")
        #expect(ListChange.splices(from: ["a"], to: ["a"]) == [])
    }
}
