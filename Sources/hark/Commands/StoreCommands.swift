import AudioEngine
import Foundation
import GLibSupport
import Localization
import MessageStore
import StoreAudio

/// Opens the store and saves the recordings cut short by a crash (cheap:
/// the state index), unless `recoveringInterrupted` is false (a recording
/// does that once it has begun). Commands that fail to open it print why and
/// return nil; a repair that fails (a full disk) is only warned about, so
/// that reading still works. `busyWait` (milliseconds) bounds how long each
/// statement waits for another process's write before failing as busy. A
/// store that can only be read (a read-only folder, a full disk) is not
/// repaired: a change asked of it says why it cannot be made. The damage
/// check and the files' comparison come afterwards (`compareFilesAfterwards`).
func openStore(busyWait: Int32? = nil, recoveringInterrupted: Bool = true) -> MessageStore? {
    let store: MessageStore
    do { store = try MessageStore(checkingForDamage: false) } catch {  // checked afterwards
        printFailure(error)
        return nil
    }
    if let busyWait { store.waitWhenBusy(milliseconds: busyWait) }
    guard recoveringInterrupted, store.access == .readWrite else { return store }
    do {
        let report = try store.recoverInterruptedRecordings()
        if !report.recoveredRecordings.isEmpty {
            printFailure(trn("recovered {count} interrupted recording", "recovered {count} interrupted recordings",
                             report.recoveredRecordings.count))
        }
    } catch StoreError.database(let error) where error.isBusy {
        // Another Hark is writing: the repairs wait for the next opening, and
        // a command that writes says the store is busy itself.
    } catch {
        // Repairs need room to write (a full disk); reading does not.
        printFailure(tr("warning: interrupted recordings could not be recovered now: {reason}", ["reason": "\(error)"]))
    }
    return store
}

/// Says on stderr what recovery found in the files: links left out by name,
/// the rest in a sentence.
func tellFindings(_ report: RecoveryReport, in store: MessageStore) {
    var report = report
    for name in report.linksLeftOut {
        printFailure(tr("note: {path} is a symbolic link to a file outside the store; it was left alone, not added as a message",
                        ["path": store.messagesFolder.appendingPathComponent(name).path]))
    }
    report.linksLeftOut = []
    if let summary = report.summary { printFailure(summary) }
}

/// Checks the database for damage (a quick check reads every row), then
/// compares the files with the rows when something other than Hark changed
/// `messages/` (see `MessageStore.compareFiles`): after the command's work,
/// so that a large store never delays the page or the command, and says what
/// it found on stderr.
func compareFilesAfterwards(_ store: MessageStore) {
    guard store.access == .readWrite else { return }
    do {
        // Found by opening (a header gone), by a statement, or by this check.
        try store.checkForDamage()
        if let summary = store.recovery.damageSummary { printFailure(summary) }
        tellFindings(try store.compareFiles(), in: store)
    } catch StoreError.database(let error) where error.isBusy {
        // Another Hark is writing: the next opening compares.
    } catch {
        printFailure(tr("warning: the messages folder could not be checked now: {reason}", ["reason": "\(error)"]))
    }
}

/// Runs `body` against the store; a StoreError becomes a one-line failure.
/// A store another process keeps locked fails within about a second, saying
/// it is busy, rather than keeping the user waiting for each statement.
func withStore(_ body: (MessageStore) throws -> Void) -> Int32 {
    guard let store = openStore(busyWait: 1_000) else { return 1 }
    defer { compareFilesAfterwards(store) }
    do {
        try body(store)
        return 0
    } catch {
        printFailure(error)
        return 1
    }
}

func runList(json: Bool, limit: Int?) -> Int32 {
    withStore { store in
        if json {
            try ListOutput.writeJSON(store, limit: limit)
            return
        }
        // Nothing at all is no answer: say so, on stderr, so scripts reading
        // stdout still get no lines (and --json gets "[]").
        if try ListOutput.writeLines(store, limit: limit) == 0 { printFailure(tr("No messages")) }
    }
}

/// `hark import FILE…`: with transcription on, the messages imported are
/// transcribed before it ends (see `transcribeArrived`).
@MainActor
func runImport(_ files: [String]) -> Int32 {
    var failed = false
    let status = withStore { store in
        var imported: [String] = []
        for file in files {
            do {
                let message = try store.importFile(file)
                print("\(message.id)  \(terminalSafe(message.title))")
                imported.append(message.id)
            } catch {
                printFailure(error)
                failed = true
            }
        }
        fflush(nil)
        transcribeArrived(imported, in: store)
    }
    return failed ? 1 : status
}

func runRename(id: String, title: String) -> Int32 { withStore { try $0.rename(id, to: title) } }
func runDelete(id: String) -> Int32 { withStore { try $0.delete(id) } }
func runUndelete(id: String) -> Int32 { withStore { try $0.undelete(id) } }

/// `hark record` without `--output`: into the store, printing the id. The row
/// exists from the start (state `recording`) and the recording holds its
/// lock, so a crash leaves something recovery turns into a message. With
/// transcription on, the take is transcribed before the command ends.
@MainActor
func runRecordIntoStore(duration: Double?, source: String?, title: String?, raw: Bool) -> Int32 {
    // Nothing is checked before the recording begins: the first words count.
    guard let store = openStore(recoveringInterrupted: false) else { return 1 }
    if let summary = store.recovery.damageSummary { printFailure(summary) }  // its header was gone
    let processing = !raw && VoiceProcessing.isAvailable
    do { try store.checkWritable() } catch {
        printFailure(error)
        return 1
    }
    if let reason = unwritableReason(store.messagesFolder.path) {
        printFailure(reason)
        return 1
    }
    let take: StoreRecording
    do {
        take = try StoreRecording(store: store, title: title, source: source.map { .pipeline($0) } ?? .defaultMicrophone,
                                  maximumDuration: duration, voiceProcessing: processing,
                                  followingReplacedDatabase: true)  // salvaged meanwhile (by the check below, say)
    } catch {
        switch error {
        case .store(let error): printFailure(error)
        case .locked(let id):
            printFailure(unwritableReason(store.messagesFolder.path) ?? tr("message {id} is being recorded elsewhere", ["id": id]))
        }
        return 1
    }
    var status: Int32 = 0
    var recovery: BackgroundRecovery?
    let onEvent: @MainActor (RecorderEvent) -> Void = { event in
        switch event {
        case .level where recovery == nil:
            // Audio is coming in: the store's check can run beside it now
            // without taking the cores the recording's start needs.
            recovery = BackgroundRecovery(folder: store.folder)
        case .input(let condition):
            warnAbout(condition)
        default:
            break
        }
    }
    let onEnd: @MainActor (StoreRecording.Outcome) -> Void = { outcome in
        switch outcome {
        case .saved(let recording), .unfinished(let recording, _):
            if case .unfinished(_, let error) = outcome {
                // The audio is kept: recovery completes the message the next
                // time the store is opened with room to write.
                printFailure(tr("{duration} were recorded and kept, but the message could not be completed ({reason}); "
                                + "it will be when there is room on the disk",
                                ["duration": seconds(recording.duration), "reason": "\(error)"]))
                status = 1
            }
            print(take.message.id)
            if let interruption = recording.interruption {
                printFailure(interruption)
                status = 1
            }
        case .failed(let error):
            printFailure(error)
            status = 1
        case .cancelled:
            status = 1
        }
        MainLoop.quit()
    }
    warnIfUnprocessed(take.recorder, raw: raw)
    let failure = record(with: take.recorder) { () throws(AudioError) in try take.start(onEvent: onEvent, onEnd: onEnd) }
    recovery?.wait()
    if let failure {
        printFailure(failure)
        return 1
    }
    withExtendedLifetime(take) {}  // its lock, until the store's check is done
    fflush(nil)  // the id, before any transcription
    transcribeArrived([take.message.id], in: store)
    return status
}

/// The store's recovery (interrupted recordings, then the files against the
/// rows) on a thread of its own with its own connection, run once a
/// recording's first audio has come in so that it never delays it; what it finds is said on
/// stderr as soon as it is found.
private final class BackgroundRecovery: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(folder: URL) {
        let done = done
        Thread.detachNewThread {
            defer { done.signal() }
            do {
                let store = try MessageStore(folder: folder)
                let report = try store.recover()
                if let summary = report.damageSummary { printFailure(summary) }
                tellFindings(report, in: store)
            } catch {
                printFailure(tr("warning: the store could not be checked now: {reason}", ["reason": "\(error)"]))
            }
        }
    }

    /// Waits for it to end (the command does not exit in the middle).
    func wait() { done.wait() }
}

/// "24.3 s": a recording's length for a message.
private func seconds(_ duration: Double) -> String {
    // TRANSLATORS: a length of time in seconds, "24.3 s".
    tr("{seconds} s", ["seconds": LocaleNumbers.digits(fixed(duration, decimals: 1))])
}

/// Why nothing can be created in `folder`, or nil when something can.
private func unwritableReason(_ folder: String) -> String? {
    guard access(folder, W_OK) != 0 else { return nil }
    return tr("the folder {folder} is not writable ({reason})", ["folder": folder, "reason": String(cString: strerror(errno))])
}
