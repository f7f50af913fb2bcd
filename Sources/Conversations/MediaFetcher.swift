import AudioEngine
import Foundation
import Levels
import Localization
import Matrix
import MatrixCrypto
import MessageStore
import StoreAudio

/// Downloads received messages' audio (authenticated media) into a file in
/// the store's folder as it arrives, analyses it off the main thread as an
/// import is, and moves it into the store: from then on the waveform is
/// Hark's own. A download stops a little past the size its event announced
/// and at `hardLimit`. A failure leaves the message without audio, never a
/// half-written file: a permanent one (too large, not audio, refused by the
/// server) is kept in the store with its reason and not tried again; a
/// transient one (the network, the server's trouble) is tried again later.
@MainActor
final class MediaFetcher {
    /// The most Hark downloads of one message, whatever its event announces.
    static let hardLimit = 100 * 1024 * 1024
    private let store: MessageStore
    private let client: MatrixClient
    private let clock: () -> Date
    /// Told when a message's audio arrived (its id).
    var onDownloaded: (String) -> Void = { _ in }
    /// Told when a message's audio failed for good (its id).
    var onFailedForGood: (String) -> Void = { _ in }
    /// Each failure, as a sentence (for a log or the CLI's standard error).
    var onFailure: (String, String) -> Void = { _, _ in }

    init(store: MessageStore, client: MatrixClient, clock: @escaping () -> Date) {
        self.store = store
        self.client = client
        self.clock = clock
    }

    /// Fetches every message waiting for its audio, newest first; returns how many arrived.
    @discardableResult
    func fetchWaiting() async -> Int {
        var fetched = 0
        let waiting = (try? store.matrix.messagesAwaitingDownload(at: clock())) ?? []
        for message in waiting {
            if Task.isCancelled { break }
            if await fetch(message) { fetched += 1 }
        }
        return fetched
    }

    /// Lets messages that failed for a transient reason be tried again now (the network came back).
    func forgetFailures() { try? store.matrix.clearDownloadWaits() }

    /// How much of a file to read at most: its announced size and a margin
    /// (a tenth and 64 KB), never more than `hardLimit`.
    static func limit(announced: Int?) -> Int {
        guard let announced, announced >= 0 else { return hardLimit }
        let (withMargin, overflow) = announced.addingReportingOverflow(announced / 10 + 64 * 1024)
        return overflow ? hardLimit : min(hardLimit, withMargin)
    }

    private func fetch(_ message: Message) async -> Bool {
        guard let url = message.mediaURL else { return false }
        guard Endpoints.download(contentURI: url) != nil else {
            fail(message, tr("its address “{address}” is no mxc:// address of a file", ["address": String(url.prefix(200))]),
                 permanent: true)
            return false
        }
        let file: DownloadFile
        do { file = try store.matrix.createDownloadFile(of: message) } catch {
            fail(message, error.description, permanent: false)
            return false
        }
        defer { store.matrix.removeDownloadFile(file) }
        let path = file.path
        let announced = try? store.matrix.announcedSize(of: message.id)
        let limit = Self.limit(announced: announced ?? nil)
        let encrypted = (try? store.matrix.encryptedMedia(of: message.id)) ?? nil
        let downloadPath = encrypted == nil ? path : path + ".ciphertext"
        defer { if encrypted != nil { try? FileManager.default.removeItem(atPath: downloadPath) } }
        do {
            try await client.download(contentURI: url, to: downloadPath, limit: limit)
        } catch .cancelled {
            return false
        } catch {
            let (reason, permanent) = Self.describe(error, limit: limit, announced: announced ?? nil)
            fail(message, reason, permanent: permanent)
            return false
        }
        if let encrypted {
            if let reason = await Self.decrypt(downloadPath, into: path, file: encrypted) {
                fail(message, reason, permanent: true)
                return false
            }
        }
        let analysis: Analysis
        do {
            analysis = try await Analyzer.analyze(path: path)
        } catch AudioError.cancelled {
            return false
        } catch AudioError.fileMissing {
            fail(message, tr("it was removed while it was being analysed"), permanent: false)
            return false
        } catch {
            fail(message, MessageStore.reason(error), permanent: true)
            return false
        }
        do {
            try store.matrix.adoptDownload(message.id, from: file, analysis: analysis)
        } catch {
            fail(message, error.description, permanent: false)
            return false
        }
        onDownloaded(message.id)
        return true
    }

    /// Decrypts a downloaded ciphertext (its hash checked first) off the main
    /// thread; the reason it could not be, or nil.
    static func decrypt(_ ciphertext: String, into path: String, file: Data) async -> String? {
        guard let described = try? JSONDecoder().decode(EncryptedFile.self, from: file),
              let keys = try? AttachmentKeys(described)
        else { return tr("its encryption keys are not usable") }
        return await Task.detached { () -> String? in
            do {
                try AttachmentCipher.decryptFile(from: URL(fileURLWithPath: ciphertext), to: URL(fileURLWithPath: path), keys: keys)
                return nil
            } catch {
                return (error as? CryptoError)?.description ?? "\(error)"
            }
        }.value
    }

    /// The reason a download failed, as the row says it, and whether it is
    /// for good: a refusal (4xx), an address that is none, too large.
    static func describe(_ error: MatrixError, limit: Int, announced: Int?) -> (String, Bool) {
        switch error {
        case .tooLarge:
            if limit < hardLimit, let announced {
                return (tr("it is larger than the {size} its message announced", ["size": sizeText(announced)]), true)
            }
            return (tr("it is larger than {size}, the most Hark downloads", ["size": HTTPFailure.megabytes(hardLimit)]), true)
        case .server(let status, _, _):
            return (error.description, (400..<500).contains(status) && status != 408)
        case .badResponse, .encryptedRoom, .invalidHomeserver:
            return (error.description, true)
        default:
            return (error.description, false)
        }
    }

    /// "276 bytes", "12 KB", "3 MB".
    static func sizeText(_ bytes: Int) -> String {
        if bytes < 1024 { return trn("{count} byte", "{count} bytes", bytes) }
        if bytes < 1024 * 1024 { return tr("{count} KB", ["count": String(bytes / 1024)]) }
        return HTTPFailure.megabytes(bytes)
    }

    private func fail(_ message: Message, _ reason: String, permanent: Bool) {
        // A transient failure waits longer each time: 30 s, 1 min, 2 min… up to an hour.
        let attempts = ((try? store.matrix.downloadAttempts(of: message.id)) ?? 0) + 1
        let wait = min(3600, 30 * pow(2, Double(min(attempts - 1, 7))))
        try? store.matrix.noteDownloadFailure(message.id, reason: reason, permanent: permanent,
                                       retryAt: permanent ? nil : clock().addingTimeInterval(wait))
        onFailure(message.id, tr("The audio of “{title}” could not be downloaded: {reason}", ["title": message.title, "reason": reason]))
        if permanent { onFailedForGood(message.id) }
    }
}
