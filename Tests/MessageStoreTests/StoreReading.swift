import Foundation
import XCTest
@testable import MessageStore

/// How the tests read a store: through the listing `hark list` prints, and
/// SQLite's own check of the file.
extension MessageStore {
    /// The messages `hark list` shows (all but deleted ones), newest first.
    func list(offset: Int = 0, limit: Int? = nil) throws -> [Message] {
        var listed: [Message] = []
        try eachListed(limit: limit.map { offset + $0 }) { listed.append($0) }
        return Array(listed.dropFirst(offset))
    }

    func count() throws -> Int { try list().count }

    /// `PRAGMA integrity_check`: "ok" for a sound database.
    func integrityCheck() throws -> String {
        var result: [String] = []
        try run("PRAGMA integrity_check") { result.append($0.text(0) ?? "") }
        return result.joined(separator: "\n")
    }
}

/// Damages the header of the store's database in `folder`: the next opening salvages every row it can read.
func damageDatabaseHeader(in folder: URL) throws {
    let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: folder.appendingPathComponent("hark.sqlite3").path))
    try handle.seek(toOffset: 0)
    handle.write(Data(repeating: 0x42, count: 16))
    try handle.close()
}
