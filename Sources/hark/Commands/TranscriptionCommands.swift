import Foundation
import GLibSupport
import MessageStore
import Transcription

/// `hark transcriber enable`: installs the engine if needed (progress on
/// standard error), and the multilingual model when the language (given, or
/// chosen before) needs it, then turns transcription on.
func runTranscriberEnable(language: String?) -> Int32 {
    let engine = Engine.standard
    guard let chosen = language.map({ TranscriptionLanguage(storedSetting: $0) })
            ?? readStore({ TranscriptionLanguage(storedSetting: $0.transcriptionLanguage) }) else { return 1 }
    do { try engine.install(multilingual: chosen.needsMultilingualModel) } catch {
        printFailure(error)
        return 1
    }
    return withStore { store in
        try store.setSetting(MessageStore.transcriptionLanguageSetting, chosen.setting)
        try store.setSetting(MessageStore.transcriptionSetting, "on")
        printFailure("Transcription is on (\(chosen.name)): new messages are transcribed on this computer.")
    }
}

/// Something read from the store, or nil (said) when it cannot be opened.
private func readStore<T>(_ read: (MessageStore) -> T) -> T? {
    var value: T?
    guard withStore({ value = read($0) }) == 0 else { return nil }
    return value
}

func runTranscriberDisable() -> Int32 {
    withStore { store in
        try store.setSetting(MessageStore.transcriptionSetting, nil)
        printFailure("Transcription is off; the transcripts made are kept.")
    }
}

func runTranscriberStatus(json: Bool) -> Int32 {
    let engine = Engine.standard
    return withStore { store in
        let enabled = store.transcribesNewMessages
        let queued = try store.queuedTranscriptionCount()
        if json {
            print("{\"enabled\":\(enabled),\"engine\":\(JSONText.string(engine.folder)),"
                  + "\"installed\":\(engine.isInstalled),\"language\":\(JSONText.string(store.transcriptionLanguage)),"
                  + "\"multilingual\":\(engine.isMultilingualInstalled),"
                  + "\"queued\":\(queued)}")
        } else {
            print("Transcription: \(enabled ? "on" : "off"), language \(store.transcriptionLanguage)")
            print("Engine: \(engine.isInstalled ? "installed" : "not installed") in \(engine.folder)"
                  + (engine.isMultilingualInstalled ? ", with the multilingual model" : ""))
            print("Waiting: \(queued)")
        }
    }
}

/// `hark transcribe ID…|--all`: queues them, runs the helper until each is
/// done, and prints each transcript (exit status 1 if any failed).
@MainActor
func runTranscribe(ids: [String], all: Bool) -> Int32 {
    let engine = Engine.standard
    guard engine.isInstalled else {
        printFailure(TranscriptionError.notInstalled)
        return 1
    }
    guard let store = openStore(busyWait: 1_000) else { return 1 }
    let wanted: [String]
    do {
        if all {
            wanted = try store.queueAllUntranscribed()
        } else {
            try store.queueTranscription(ids)
            wanted = ids
        }
    } catch {
        printFailure(error)
        return 1
    }
    var pending = Set(wanted)
    var failed = 0
    let transcriber = Transcriber(store: store, engine: engine, only: pending)
    transcriber.onEvent = { event in
        guard case .finished(let id, let state) = event, pending.remove(id) != nil else { return }
        let message = try? store.message(id)
        switch state {
        case .failed:
            failed += 1
            let reason = (try? store.transcriptError(of: id)).flatMap { $0 } ?? "unknown"
            printFailure("\(id): transcript failed: \(reason)")
        case .empty:
            print("\(id)\t(nothing was said)")
        default:
            print("\(id)\t\(terminalSafe(message?.transcript ?? ""))")
        }
        fflush(nil)
    }
    MainLoop.onUnixSignal(SIGINT) {
        transcriber.stop()
        exit(130)
    }
    transcriber.wake()
    // Each message has its deadline: the wait ends.
    while !pending.isEmpty { MainLoop.iterate(until: { pending.isEmpty }, timeout: 3600) }
    transcriber.stop()
    return failed == 0 ? 0 : 1
}

/// `hark search WORDS`: messages whose title or transcript has the words
/// (and a day, if one is named), newest first.
func runSearch(words: String, json: Bool) -> Int32 {
    withStore { store in
        let ids = try store.searchIDs(SearchQuery(words), in: .all).reversed()
        var objects: [String] = []
        for id in ids {
            let message = try store.message(id)
            if json {
                objects.append("{\"id\":\(JSONText.string(id)),\"title\":\(JSONText.string(message.title)),"
                               + "\"transcript\":\(message.transcript.map(JSONText.string) ?? "null")}")
            } else {
                print("\(id)  \(terminalSafe(message.title))"
                      + (message.transcript.map { "  — \(terminalSafe($0))" } ?? ""))
            }
        }
        if json { print("[" + objects.joined(separator: ",") + "]") }
    }
}
