import Foundation
import HelperProcesses

/// The encryption engine: Resources/crypto-engine.py (vodozemac) in a helper
/// process that holds every private key and session of this device, spoken
/// to over a JSON-lines channel. Its state lives in `stateFolder`, encrypted
/// under the 32-byte pickle key, which reaches it only through its standard
/// input (the first line). The helper starts with the first call, and again
/// with the call after it died: it saves before it answers, so a restart
/// loses nothing that was answered. The typed calls are in CryptoEngine+Calls.
@MainActor
public final class CryptoEngine {
    /// The longest answer taken: a to-device payload or a room event, far below it.
    static let longestLine = 4 * 1024 * 1024
    public let files: CryptoEngineFiles
    public let stateFolder: String
    private let pickleKey: Data
    private var channel: JSONLinesChannel?
    private var startup: Task<Result<JSONLinesChannel, CryptoEngineError>, Never>?
    private var nextID = 0

    /// `pickleKey`: 32 bytes (from the Secret Service in the app).
    public init(files: CryptoEngineFiles = .standard, stateFolder: String, pickleKey: Data) {
        precondition(pickleKey.count == 32, "a pickle key is 32 bytes")
        self.files = files
        self.stateFolder = stateFolder
        self.pickleKey = pickleKey
    }

    /// Ends the helper (its state is saved); the next call starts it again.
    public func stop() {
        channel?.stop()
        channel = nil
    }

    /// Calls `method` with `arguments` (JSON values, as JSONSerialization
    /// takes them) and gives the answer's object.
    func call(_ method: String, _ arguments: [String: Any] = [:]) async throws(CryptoEngineError) -> Answer {
        let channel = try await running()
        nextID += 1
        let id = String(nextID)
        var request = arguments
        request["id"] = id
        request["method"] = method
        guard let data = try? JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]) else {
            preconditionFailure("the arguments of \(method) are not JSON")
        }
        let line: Data
        do { line = try await channel.call(data, id: id) } catch { throw .helperExited }
        let answer = Answer(line)
        if let code = answer.string("code") {
            throw .refused(Refusal(rawValue: code), answer.string("error") ?? code)
        }
        return answer
    }

    /// The running helper, started (and handed the key) when there is none.
    private func running() async throws(CryptoEngineError) -> JSONLinesChannel {
        // An empty line is skipped by the helper: one that cannot be written
        // means it is gone, and nothing was sent to it.
        if let channel, channel.isOpen, channel.process.write(line: "") { return channel }
        channel?.stop()
        channel = nil
        let startup = self.startup ?? Task { await self.launch() }
        self.startup = startup
        let result = await startup.value
        if self.startup == startup { self.startup = nil }
        let started = try result.get()
        channel = started
        return started
    }

    private func launch() async -> Result<JSONLinesChannel, CryptoEngineError> {
        guard files.isInstalled else { return .failure(.notInstalled(folder: files.folder)) }
        let channel: JSONLinesChannel
        do {
            channel = try JSONLinesChannel(arguments: [files.python, files.helperScript, stateFolder],
                                           environment: ["PYTHONUNBUFFERED": "1"], longestLine: Self.longestLine)
        } catch {
            return .failure(.couldNotStart(error.description))
        }
        let greeting = Greeting()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, CryptoEngineError>, Never>) in
            greeting.continuation = continuation
            channel.onEvent = { greeting.received(Answer($0)) }
            channel.onExit = { _ in greeting.finish(.failure(.helperExited)) }
            channel.process.write(line: pickleKey.base64EncodedString())
        }
        channel.onEvent = { _ in }
        channel.onExit = { _ in }
        if case .failure(let error) = result {
            channel.stop()
            return .failure(error)
        }
        return .success(channel)
    }
}

/// The helper's first line: ready, or why not.
@MainActor
private final class Greeting {
    var continuation: CheckedContinuation<Result<Void, CryptoEngineError>, Never>?

    func received(_ event: Answer) {
        switch (event.string("event"), event.string("code")) {
        case ("ready", _): finish(.success(()))
        case ("failed", "wrong_pickle_key"): finish(.failure(.wrongPickleKey))
        case ("failed", let code): finish(.failure(.refused(Refusal(rawValue: code ?? "failed"), event.string("error") ?? "")))
        default: break
        }
    }

    func finish(_ result: Result<Void, CryptoEngineError>) {
        continuation?.resume(returning: result)
        continuation = nil
    }
}

/// One line from the helper, read as a JSON object.
struct Answer {
    let object: [String: Any]
    private let line: Data?

    init(_ data: Data) {
        line = data
        object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// One answer inside another's list (a batch call's).
    init(_ object: [String: Any]) {
        self.object = object
        line = nil
    }

    /// The answer as JSON (encoded again only for one inside a list, and only when asked).
    var data: Data { line ?? (try? JSONSerialization.data(withJSONObject: object)) ?? Data() }

    func string(_ key: String) -> String? { object[key] as? String }

    /// The whole answer as `T`, its snake_case names in camelCase (`session_id`: `sessionId`;
    /// the keys of its maps, base64 key ids and keys, have no underscore to change).
    func decoded<T: Decodable>(_ type: T.Type) throws(CryptoEngineError) -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode(T.self, from: data) } catch {
            throw .refused(Refusal(rawValue: "unreadable_answer"), "\(error)")
        }
    }

    /// The JSON object under `key`, encoded with sorted keys.
    func json(_ key: String) throws(CryptoEngineError) -> Data {
        guard let value = object[key] as? [String: Any],
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            throw .refused(Refusal(rawValue: "unreadable_answer"), "the answer has no object \(key)")
        }
        return data
    }
}
