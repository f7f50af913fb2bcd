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
}
