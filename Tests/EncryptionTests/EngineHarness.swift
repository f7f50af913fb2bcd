import Encryption
import Foundation
import HarkTestSupport
import XCTest

/// The engine scripts/run-tests installs once (.build/crypto-engine, or
/// HARK_CRYPTO_ENGINE_DIR), with the checkout's helper.
enum InstalledEngine {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static var files: CryptoEngineFiles {
        CryptoEngineFiles(folder: ProcessInfo.processInfo.environment["HARK_CRYPTO_ENGINE_DIR"] ?? root + "/.build/crypto-engine")
    }

    /// The files, or the test skipped saying how to install the engine.
    static func required() throws -> CryptoEngineFiles {
        guard files.isInstalled else {
            throw XCTSkip("the encryption engine is not installed in \(files.folder): "
                          + "run scripts/install-crypto-engine \(files.folder) (scripts/run-tests does)")
        }
        return files
    }
}

/// One device: an engine over a state folder of its own, under a pickle key of its own.
@MainActor
final class TestDevice {
    let scratch: ScratchFolder
    let pickleKey: Data
    private(set) var engine: CryptoEngine

    init() throws {
        scratch = try ScratchFolder()
        pickleKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        engine = CryptoEngine(files: try InstalledEngine.required(), stateFolder: scratch.path("state"), pickleKey: pickleKey)
    }

    var stateFolder: String { engine.stateFolder }
    var stateFile: String { stateFolder + "/engine-state.json" }

    /// The same device in a new engine (as after Hark restarted), under `key`.
    func reopened(pickleKey key: Data? = nil) -> CryptoEngine {
        engine.stop()
        engine = CryptoEngine(files: engine.files, stateFolder: stateFolder, pickleKey: key ?? pickleKey)
        return engine
    }

    /// The helper process now serving this state folder.
    func helperProcess() -> pid_t? { helperProcesses().first }

    /// The helper processes alive for this state folder.
    func helperProcesses() -> [pid_t] {
        ProcessTable.processes { arguments in
            arguments.contains { $0.hasSuffix("crypto-engine.py") } && arguments.last == stateFolder
        }
    }

    /// Kills the helper with SIGKILL (no goodbye) and waits until it is dead.
    func killHelper() throws {
        let pid = try XCTUnwrap(helperProcess(), "no helper runs for \(stateFolder)")
        kill(pid, SIGKILL)
        for _ in 0..<3000 where !ProcessTable.isDead(pid) { usleep(10_000) }
        XCTAssertTrue(ProcessTable.isDead(pid))
    }
}

/// A JSON object's encoding, from a literal.
func json(_ object: [String: Any]) -> Data {
    try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

/// A decoded JSON object.
func object(_ data: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

/// The error `body` ended with; fails the test when it ended well.
@MainActor
func failure(_ body: @escaping @MainActor () async throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> CryptoEngineError? {
    do { try awaitOnLoop(body) } catch { return error as? CryptoEngineError }
    XCTFail("no error", file: file, line: line)
    return nil
}
