import AudioEngine
import Foundation
import GLibSupport
import MessageStore

/// Opens the store and reconciles it with its files, telling the user what
/// had to be repaired. Commands that fail to open it print why and return nil;
/// a repair that fails (a full disk) is only warned about, so that reading
/// still works. `busyWait` (milliseconds) bounds how long each statement
/// waits for another process's write before failing as busy. A store that
/// can only be read (a read-only folder, a full disk) is not repaired: a
/// change asked of it says why it cannot be made.
func openStore(busyWait: Int32? = nil) -> MessageStore? {
    let store: MessageStore
    do { store = try MessageStore() } catch {
        printFailure(error)
        return nil
    }
    if let busyWait { store.waitWhenBusy(milliseconds: busyWait) }
    guard store.access == .readWrite else { return store }
    do {
        let report = try store.recover()
        if let summary = report.damageSummary { printFailure(summary) }
        if !report.recoveredRecordings.isEmpty {
            printFailure("recovered \(report.recoveredRecordings.count) interrupted recording(s)")
        }
        for name in report.linksLeftOut {
            printFailure("note: \(store.messagesFolder.appendingPathComponent(name).path) is a symbolic link to a file "
                         + "outside the store; it was left alone, not added as a message")
        }
    } catch StoreError.database(let error) where error.isBusy {
        // Another Hark is writing: the repairs wait for the next opening, and
        // a command that writes says the store is busy itself.
    } catch {
        // Repairs need room to write (a full disk); reading does not.
        printFailure("warning: interrupted recordings could not be recovered now: \(error)")
    }
    return store
}

/// Runs `body` against the store; a StoreError becomes a one-line failure.
/// A store another process keeps locked fails within about a second, saying
/// it is busy, rather than keeping the user waiting for each statement.
func withStore(_ body: (MessageStore) throws -> Void) -> Int32 {
    guard let store = openStore(busyWait: 1_000) else { return 1 }
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
        let messages = try store.list(offset: 0, limit: try limit ?? max(1, store.count()))
        if json {
            let iso = ISO8601DateFormatter()
            let objects: [[String: Any]] = messages.map {
                var object: [String: Any] = [
                    "id": $0.id, "title": $0.title, "created_at": iso.string(from: $0.createdAt),
                    "duration_s": ($0.duration * 1000).rounded() / 1000, "state": $0.state.rawValue]
                if let processed = $0.voiceProcessed { object["voice_processed"] = processed }
                return object
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        // Nothing at all is no answer: say so, on stderr, so scripts reading
        // stdout still get no lines (and --json gets "[]").
        if messages.isEmpty { printFailure("No messages") }
        let dates = DateFormatter()
        dates.dateFormat = "yyyy-MM-dd HH:mm"
        for message in messages {
            // The window's clock for durations: rounded, hours when long.
            print("\(message.id)  \(dates.string(from: message.createdAt))  "
                  + "\(DurationText.clock(message.duration))  \(message.state.rawValue)  \(terminalSafe(message.title))")
        }
    }
}

func runImport(_ files: [String]) -> Int32 {
    var failed = false
    let status = withStore { store in
        for file in files {
            do {
                let message = try store.importFile(file)
                print("\(message.id)  \(terminalSafe(message.title))")
            } catch {
                printFailure(error)
                failed = true
            }
        }
    }
    return failed ? 1 : status
}

func runRename(id: String, title: String) -> Int32 { withStore { try $0.rename(id, to: title) } }
func runDelete(id: String) -> Int32 { withStore { try $0.delete(id) } }
func runUndelete(id: String) -> Int32 { withStore { try $0.undelete(id) } }

/// `hark record` without `--output`: into the store, printing the id. The row
/// exists from the start (state `recording`) and the recording holds its
/// lock, so a crash leaves something recovery turns into a message.
@MainActor
func runRecordIntoStore(duration: Double?, source: String?, title: String?, raw: Bool) -> Int32 {
    guard let store = openStore() else { return 1 }
    let message: Message
    let processing = !raw && VoiceProcessing.isAvailable
    do { try store.checkWritable() } catch {
        printFailure(error)
        return 1
    }
    if let reason = unwritableReason(store.messagesFolder.path) {
        printFailure(reason)
        return 1
    }
    do { message = try store.beginRecording(title: title, voiceProcessed: processing) } catch {
        printFailure(error)
        return 1
    }
    guard let lock = RecordingLock(store: store, id: message.id) else {
        try? store.discardRecording(message.id)
        printFailure(unwritableReason(store.messagesFolder.path) ?? "message \(message.id) is being recorded elsewhere")
        return 1
    }
    var status: Int32 = 0
    let recorder = Recorder(outputPath: store.audioPath(of: message),
                            source: source.map { .pipeline($0) } ?? .defaultMicrophone,
                            maximumDuration: duration, voiceProcessing: processing) { event in
        switch event {
        case .input(let condition):
            warnAbout(condition)
        case .finished(let recording):
            do {
                try store.finishRecording(message.id, duration: recording.duration, levels: recording.levels)
            } catch {
                // The audio is kept: recovery completes the message the next
                // time the store is opened with room to write.
                printFailure("\(seconds(recording.duration)) were recorded and kept, but the message could not be "
                             + "completed (\(error)); it will be when there is room on the disk")
                status = 1
            }
            print(message.id)
            if let interruption = recording.interruption {
                printFailure(interruption)
                status = 1
            }
            MainLoop.quit()
        case .failed(let error):
            try? store.discardRecording(message.id)
            printFailure(error)
            status = 1
            MainLoop.quit()
        case .cancelled:
            try? store.discardRecording(message.id)
            status = 1
            MainLoop.quit()
        default:
            break
        }
    }
    warnIfUnprocessed(recorder, raw: raw)
    let failure = record(with: recorder) {
        chmod(store.audioPath(of: message), 0o600)  // the file sink created it with the umask's mode
    }
    if let failure {
        try? store.discardRecording(message.id)
        printFailure(failure)
        return 1
    }
    withExtendedLifetime(lock) {}
    return status
}

/// "24.3 s": a recording's length for a message.
private func seconds(_ duration: Double) -> String {
    "\(fixed(duration, decimals: 1)) s"
}

/// Why nothing can be created in `folder`, or nil when something can.
private func unwritableReason(_ folder: String) -> String? {
    guard access(folder, W_OK) != 0 else { return nil }
    return "the folder \(folder) is not writable (\(String(cString: strerror(errno))))"
}
