import Foundation
import Matrix
import GLibSupport
import HarkTestSupport
import MessageStore
import XCTest

/// The error `body` threw, which must be one; fails the test otherwise.
@MainActor
func runFailing<E: Error>(_ type: E.Type, _ body: @escaping @MainActor () async throws -> Void,
                          file: StaticString = #filePath, line: UInt = #line) throws -> E? {
    do {
        try awaitOnLoop(body)
        XCTFail("no error", file: file, line: line)
        return nil
    } catch let error as E {
        return error
    }
}

extension MatrixClient {
    /// A file's bytes, downloaded as Hark downloads (into a file) and read back.
    @MainActor
    func downloadedData(contentURI: String) async throws -> Data {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hark-test-download-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await download(contentURI: contentURI, to: path, limit: 100 * 1024 * 1024)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}

/// Alice signed in at a broken server of the test's own (`url`), a token of
/// her own and a store in `folder`: for server faults Synapse never makes.
@MainActor
func signedInAtBrokenServer(_ url: String, storeIn folder: ScratchFolder) throws -> (MatrixClient, MessageStore) {
    let client = MatrixClient(homeserver: url, session: Session(homeserver: url, userID: "@alice:broken.example",
                                                                 deviceID: "DEVICE", accessToken: "token"))
    let store = try MessageStore(folder: folder.url.appendingPathComponent("store"))
    try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: "@alice:broken.example", homeserver: url, deviceID: "DEVICE"))
    return (client, store)
}
