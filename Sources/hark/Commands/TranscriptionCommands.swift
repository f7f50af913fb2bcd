import Foundation
import GLibSupport
import Localization
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
        printFailure(tr("Transcription is on ({language}): new messages are transcribed on this computer.", ["language": chosen.name]))
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
        printFailure(tr("Transcription is off; the transcripts made are kept."))
    }
}

func runTranscriberStatus(json: Bool) -> Int32 {
    let engine = Engine.standard
    // Installed by its stamp is not enough: its files are checked against their hashes.
    var damaged = engine.damagedFiles
    if damaged == nil, engine.isInstalled, case .damaged(let files) = engine.checkNow() {
        engine.markDamaged(files)
        damaged = files
    }
    return withStore { store in
        let enabled = store.transcribesNewMessages
        let queued = try store.queuedTranscriptionCount()
        if json {
            print("{\"damaged\":" + (damaged.map { "[" + $0.map(JSONText.string).joined(separator: ",") + "]" } ?? "null")
                  + ",\"enabled\":\(enabled),\"engine\":\(JSONText.string(engine.folder)),"
                  + "\"installed\":\(engine.isInstalled),\"language\":\(JSONText.string(store.transcriptionLanguage)),"
                  + "\"multilingual\":\(engine.isMultilingualInstalled),"
                  + "\"queued\":\(queued)}")
        } else {
            let language = store.transcriptionLanguage
            // TRANSLATORS: {language} is the setting's code: "en", "auto" or a language code.
            print(enabled ? tr("Transcription: on, language {language}", ["language": language])
                          : tr("Transcription: off, language {language}", ["language": language]))
            let folder: KeyValuePairs<String, String> = ["folder": engine.folder]
            let installed = !engine.isInstalled ? tr("Engine: not installed in {folder}", folder)
                  : engine.isMultilingualInstalled ? tr("Engine: installed in {folder}, with the multilingual model", folder)
                  : tr("Engine: installed in {folder}", folder)
            print(damaged.map { EngineCheck.damaged($0).description } ?? installed)
            print(tr("Waiting: {count}", ["count": LocaleNumbers.integer(queued)]))
        }
    }
}

/// `hark transcribe ID…|--all`: queues them (`--all`: every message without
/// a transcript, those already waiting in the queue included), runs the
/// helper until each is done, and prints each transcript (exit status 1 if
/// any failed; 130 after Ctrl+C, which leaves the rest queued).
@MainActor
func runTranscribe(ids: [String], all: Bool) -> Int32 {
    let engine = Engine.standard
    guard engine.isInstalled else {
        printFailure(engine.damagedFiles.map { EngineCheck.damaged($0).description } ?? TranscriptionError.notInstalled.description)
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
    guard !wanted.isEmpty else {
        printFailure(tr("Every message already has a transcript, or is waiting for one."))
        return 0
    }
    let work = QueueWork(store: store, engine: engine)
    work.report = { id, state in
        if state == .failed {
            printFailure(transcriptLine(id, state, in: store))
        } else {
            print(transcriptLine(id, state, in: store))
        }
    }
    work.add(wanted)
    guard work.waitForAll() else { return 130 }
    return work.failed == 0 ? 0 : 1
}

/// After a command saved messages (`record`, `import`): with transcription
/// on, what the store queued of them is transcribed before the command ends,
/// each transcript on standard error (standard output keeps the ids).
@MainActor
func transcribeArrived(_ ids: [String], in store: MessageStore) {
    let work = QueueWork(store: store)
    work.report = { id, state in printFailure(transcriptLine(id, state, in: store)) }
    guard work.addArrived(ids) else { return }
    _ = work.waitForAll()
}

/// "ID<tab>transcript", or why it failed, for a message just transcribed.
@MainActor
func transcriptLine(_ id: String, _ state: TranscriptState, in store: MessageStore) -> String {
    switch state {
    case .failed:
        let reason = (try? store.transcriptError(of: id)).flatMap { $0 } ?? tr("unknown")
        return tr("{id}: transcript failed: {reason}", ["id": id, "reason": reason])
    case .empty:
        return id + "\t" + tr("(nothing was said)")
    default:
        return "\(id)\t\(terminalSafe((try? store.message(id))?.transcript ?? ""))"
    }
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
