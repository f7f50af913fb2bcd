import Foundation

extension Database {
    /// Reads `columns` of every row of `table` that can still be read, in
    /// rowid order, stepping over what cannot: when a page fails, the next
    /// rowid that can be reached is searched for (doubling the step, then
    /// halving back to the first one that reads), so that only the rows of
    /// the damaged page are lost. Returns how many rows were read.
    func readableRows(of table: String, columns: [String], row: (Row) -> Void) -> Int {
        let selection = "SELECT rowid, \(columns.joined(separator: ", ")) FROM \"\(table)\" NOT INDEXED"
        var read = 0
        var start = Int64.min  // the lowest rowid not yet looked at
        while true {
            var last: Int64?
            do {
                try query(selection + " WHERE rowid >= ? ORDER BY rowid", [.integer(start)]) { found in
                    last = found.integer(0)
                    read += 1
                    row(found)
                }
                return read
            } catch {
                let failedAt = last.map { $0.addingReportingOverflow(1) } ?? (partialValue: start, overflow: false)
                guard !failedAt.overflow,
                      let next = firstReadableRowid(selection, from: failedAt.partialValue) else { return read }
                start = next
            }
        }
    }

    /// The smallest rowid from which `selection` reads again, past `failing`
    /// (which does not read); nil when nothing after it does.
    private func firstReadableRowid(_ selection: String, from failing: Int64) -> Int64? {
        func reads(from rowid: Int64) -> Bool {
            (try? query(selection + " WHERE rowid >= ? ORDER BY rowid LIMIT 1", [.integer(rowid)])) != nil
        }
        var bad = failing
        var step: Int64 = 1
        var good: Int64
        while true {
            let (candidate, overflow) = failing.addingReportingOverflow(step)
            if overflow { return nil }
            if reads(from: candidate) { good = candidate; break }
            bad = candidate
            if step > Int64.max / 2 { return nil }
            step *= 2
        }
        while good - bad > 1 {
            let middle = bad + (good - bad) / 2
            if reads(from: middle) { good = middle } else { bad = middle }
        }
        return good
    }
}
