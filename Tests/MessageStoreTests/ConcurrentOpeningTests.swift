import Foundation
import HarkTestSupport
@testable import MessageStore
import XCTest

/// Several processes opening a store that does not exist yet: each must find
/// the schema made once, whoever made it.
final class ConcurrentOpeningTests: XCTestCase {
    func testStoresOpenedAtOnceOnANewFolderAllSucceed() throws {
        for round in 0..<30 {
            let scratch = try ScratchFolder()
            let folder = scratch.url.appendingPathComponent("hark")
            let failures = Failures()
            // Threads, each with its own connection, as separate processes would have.
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let store = try MessageStore(folder: folder)
                    _ = try store.list()
                } catch {
                    failures.add("round \(round): \(error)")
                }
            }
            XCTAssertEqual(failures.all, [])
            var version = 0
            try MessageStore(folder: folder).run("PRAGMA user_version") { version = Int($0.integer(0)) }
            XCTAssertEqual(version, Schema.version)
        }
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
