/// The one run of items that differs between two lists: the items they share
/// at the start and at the end stay, the middle is replaced. Pure, so the
/// history can splice only what changed (GTK then keeps every other row).
struct ListChange: Equatable {
    /// Where the changed run starts, in both lists.
    let start: Int
    /// How many of the old list's items it replaces.
    let removed: Int
    /// Which of the new list's items take their place.
    let inserted: Range<Int>

    init(from old: [String], to new: [String]) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        start = prefix
        removed = old.count - prefix - suffix
        inserted = prefix..<(new.count - suffix)
    }

    var isEmpty: Bool { removed == 0 && inserted.isEmpty }

    /// One splice of the list: at `start`, `removed` items go and the new
    /// list's `inserted` items come.
    struct Splice: Equatable {
        let start: Int
        let removed: Int
        let inserted: Range<Int>
    }

    /// The splices, applied in order, that turn `old` into `new` keeping the
    /// row of every item both hold, when one list holds the other in the same
    /// order: closing a search puts back the messages around a result (with
    /// the keyboard focus on it), narrowing one takes others away. Nil when
    /// neither holds the other (then the one changed run is replaced).
    static func splices(from old: [String], to new: [String]) -> [Splice]? {
        if old.count < new.count {
            var splices: [Splice] = []
            var kept = 0
            var index = 0
            while index < new.count {
                if kept < old.count, new[index] == old[kept] {
                    kept += 1
                    index += 1
                    continue
                }
                let start = index
                while index < new.count, !(kept < old.count && new[index] == old[kept]) { index += 1 }
                splices.append(Splice(start: start, removed: 0, inserted: start..<index))
            }
            return kept == old.count ? splices : nil
        }
        if new.count < old.count {
            // The old items that go, from the back so that earlier positions stay.
            guard let insertions = splices(from: new, to: old) else { return nil }
            return insertions.reversed().map { Splice(start: $0.start, removed: $0.inserted.count, inserted: 0..<0) }
        }
        return old == new ? [] : nil
    }
}
