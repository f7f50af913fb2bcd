import AudioEngine
import Foundation
import HarkTestSupport
@testable import MessageStore
import StoreAudio
import XCTest

/// An import copies under a hidden `.importing-` name first. One killed while
/// copying leaves that file behind with no row: it was never a message.
final class StaleImportTests: XCTestCase {
    var scratch: ScratchFolder!
    var folder: URL { scratch.url.appendingPathComponent("hark") }

    override func setUpWithError() throws { scratch = try ScratchFolder() }
    override func tearDownWithError() throws { scratch = nil }

    func opus(_ name: String) throws -> String {
        let path = scratch.path(name)
        try gstLaunch("audiotestsrc num-buffers=100 samplesperbuffer=960 volume=0.3 "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
        return path
    }

    private func hiddenFiles(_ store: MessageStore) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.messagesFolder.path)) ?? [])
            .filter { $0.hasPrefix(".importing-") }.sorted()
    }

    func testAnImportKilledWhileCopyingLeavesNoFileBehindAfterTheNextOpensCheck() throws {
        var store: MessageStore? = try MessageStore(folder: folder)
        let leftover = store!.messagesFolder.appendingPathComponent(".importing-0a1b.ogg").path
        try FileManager.default.copyItem(atPath: try opus("half.ogg"), toPath: leftover)
        store = nil

        let reopened = try MessageStore(folder: folder)
        XCTAssertEqual(try reopened.recover().adoptedFiles, [], "never a message")
        XCTAssertEqual(hiddenFiles(reopened), [])
        XCTAssertEqual(try reopened.recover(thorough: true).adoptedFiles, [], "never a message")
        XCTAssertEqual(try reopened.count(), 0)
    }

    func testAnImportWhoseRowWasWrittenIsStillMovedIntoPlace() throws {
        let store = try MessageStore(folder: folder)
        let message = try store.importFile(try opus("note.ogg"))
        let partial = store.messagesFolder.appendingPathComponent(".importing-" + message.fileName).path
        try FileManager.default.moveItem(atPath: store.audioPath(of: message), toPath: partial)

        let reopened = try MessageStore(folder: folder)
        try reopened.recover()
        XCTAssertTrue(FileManager.default.fileExists(atPath: reopened.audioPath(of: message)))
        XCTAssertEqual(try reopened.message(message.id).state, .ready)
    }

    /// The source is a pipe the test writes into, so the import is caught in
    /// the middle of its copy, as a kill would catch it.
    func testAnImportStillCopyingIsPrivateAndLeftAloneByAnotherOpen() throws {
        let store = try MessageStore(folder: folder)
        let audio = try Data(contentsOf: URL(fileURLWithPath: try opus("note.ogg")))
        let analysis = try Analyzer.analyze(path: scratch.path("note.ogg"))
        let pipe = scratch.path("incoming.ogg")
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = ImportOutcome()
        let folder = self.folder
        Thread.detachNewThread {
            do {
                let importer = try MessageStore(folder: folder)
                outcome.set(try importer.importFile(pipe, title: "Piped", analysis: analysis).id)
            } catch {
                outcome.set("failed: \(error)")
            }
            finished.signal()
        }
        let writer = try XCTUnwrap(FileHandle(forWritingAtPath: pipe))
        try writer.write(contentsOf: audio.prefix(1000))
        var partial: [String] = []
        for _ in 0..<3000 where partial.isEmpty {
            partial = hiddenFiles(store)
            if partial.isEmpty { usleep(10_000) }
        }
        let name = try XCTUnwrap(partial.first, "the import's hidden copy")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.messagesFolder.appendingPathComponent(name).path)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)

        XCTAssertTrue(try MessageStore(folder: folder).recover().comparedFiles)  // another process opening meanwhile
        XCTAssertEqual(hiddenFiles(store), [name], "a running import is left alone")

        try writer.write(contentsOf: audio.dropFirst(1000))
        try writer.close()
        finished.wait()
        let id = try XCTUnwrap(outcome.value)
        let message = try store.message(id)
        XCTAssertEqual(FileManager.default.contents(atPath: store.audioPath(of: message)), audio)
        XCTAssertEqual(hiddenFiles(store), [])
    }
}

private final class ImportOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: String?
    func set(_ value: String) { lock.withLock { result = value } }
    var value: String? { lock.withLock { result } }
}
