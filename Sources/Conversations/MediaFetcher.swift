import AudioEngine
import Foundation
import Localization
import Matrix
import MessageStore

/// Downloads received messages' audio (authenticated media), analyses it
/// off the main thread as an import is, and moves it into the store: from
/// then on the waveform is Hark's own. A failure leaves the message waiting
/// (it is tried again at the next pass), never a half-written file.
@MainActor
final class MediaFetcher {
    private let store: MessageStore
    private let client: MatrixClient
    /// Told when a message's audio arrived (its id).
    var onDownloaded: (String) -> Void = { _ in }
    /// Each failure, as a sentence (for a log or the CLI's standard error).
    var onFailure: (String, String) -> Void = { _, _ in }
    private var failedThisSession: Set<String> = []

    init(store: MessageStore, client: MatrixClient) {
        self.store = store
        self.client = client
    }

    /// Fetches every message waiting for its audio, newest first; returns how many arrived.
    @discardableResult
    func fetchWaiting() async -> Int {
        var fetched = 0
        let waiting = ((try? store.messagesAwaitingDownload()) ?? []).filter { !failedThisSession.contains($0.id) }
        for message in waiting {
            if Task.isCancelled { break }
            if await fetch(message) { fetched += 1 }
        }
        return fetched
    }

    /// Lets messages that failed be tried again (after the network came back).
    func forgetFailures() { failedThisSession.removeAll() }

    private func fetch(_ message: Message) async -> Bool {
        guard let url = message.mediaURL else { return false }
        let data: Data
        do {
            data = try await client.download(contentURI: url)
        } catch {
            if error != .cancelled { fail(message, error.description) }
            return false
        }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("hark-download-\(message.id).\((message.fileName as NSString).pathExtension)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard FileManager.default.createFile(atPath: scratch.path, contents: data,
                                             attributes: [.posixPermissions: 0o600]) else {
            fail(message, tr("it could not be written to {folder}", ["folder": scratch.deletingLastPathComponent().path]))
            return false
        }
        let analysis: Analysis
        do {
            analysis = try await Analyzer.analyze(path: scratch.path)
        } catch {
            fail(message, tr("it is not audio Hark can play ({reason})", ["reason": MessageStore.reason(error)]))
            return false
        }
        do {
            try store.adoptDownload(message.id, from: scratch.path, analysis: analysis)
        } catch {
            fail(message, error.description)
            return false
        }
        onDownloaded(message.id)
        return true
    }

    private func fail(_ message: Message, _ reason: String) {
        failedThisSession.insert(message.id)
        onFailure(message.id, tr("The audio of “{title}” could not be downloaded: {reason}", ["title": message.title, "reason": reason]))
    }
}
