import Foundation
import MessageStore

/// `hark list`'s output, written as the rows are read: neither the messages
/// nor the text are held whole, however many there are.
enum ListOutput {
    /// One JSON array on one line, keys sorted, as JSONSerialization would
    /// write it whole.
    static func writeJSON(_ store: MessageStore, limit: Int?) throws {
        let out = BufferedOutput()
        let iso = ISO8601DateFormatter()
        var first = true
        out.write("[")
        let sends = (try? store.matrix.sendSummaries()) ?? [:]
        try store.eachListed(limit: limit) { message in
            let sent = sends[message.id]
            func text(_ value: String?) -> String { value.map(JSONText.string) ?? "null" }
            var object = "{\"created_at\":" + JSONText.string(iso.string(from: message.createdAt))
                + ",\"duration_s\":" + JSONText.number((message.duration * 1000).rounded() / 1000)
                + ",\"encrypted\":" + (message.encrypted ? "true" : "false")
                + ",\"event_id\":" + text(message.eventID ?? sent?.eventID)
                + ",\"id\":" + JSONText.string(message.id)
                + ",\"origin\":" + JSONText.string(message.origin.rawValue)
                + ",\"room_id\":" + text(message.roomID)
                + ",\"send_state\":" + text(sent?.state.rawValue)
                + ",\"sender\":" + text(message.sender)
                + ",\"state\":" + JSONText.string(message.state.rawValue)
                + ",\"title\":" + JSONText.string(message.title)
                + ",\"transcript\":" + text(message.transcript)
                + ",\"transcript_source\":" + text(message.transcript == nil ? nil : message.transcriptSource?.rawValue)
                + ",\"transcript_state\":" + JSONText.string(message.transcriptState.rawValue)
                + ",\"undecrypted\":" + (message.undecrypted.map(undecrypted) ?? "null")
                + ",\"unread\":" + (message.unread ? "true" : "false")
                + ",\"unverified_device\":" + (message.unverifiedDevice ? "true" : "false")
            if let processed = message.voiceProcessed { object += ",\"voice_processed\":" + (processed ? "true" : "false") }
            out.write((first ? "" : ",") + object + "}")
            first = false
        }
        out.write("]\n")
        out.flush()
    }

    /// An encrypted message that cannot be read (yet): where it stands and the row's sentence.
    private static func undecrypted(_ undecrypted: Undecrypted) -> String {
        "{\"reason\":" + JSONText.string(undecrypted.sentence)
            + ",\"standing\":" + JSONText.string(undecrypted.standing.rawValue)
            + ",\"withheld\":" + (undecrypted.withheld.map(JSONText.string) ?? "null") + "}"
    }

    /// One line per message; returns how many.
    static func writeLines(_ store: MessageStore, limit: Int?) throws -> Int {
        let out = BufferedOutput()
        let dates = DateFormatter()
        dates.dateFormat = "yyyy-MM-dd HH:mm"
        var count = 0
        try store.eachListed(limit: limit) { message in
            // The window's clock for durations: rounded, hours when long.
            out.write("\(message.id)  \(dates.string(from: message.createdAt))  "
                      + "\(DurationText.clock(message.duration, locale: Locale(identifier: "en_US_POSIX")))  \(message.state.rawValue)  \(terminalSafe(message.title))\n")
            count += 1
        }
        out.flush()
        return count
    }
}

/// Standard output through a buffer of its own, written out every 64 KiB.
private final class BufferedOutput {
    private var buffer = Data()

    func write(_ text: String) { write(Data(text.utf8)) }

    func write(_ data: Data) {
        buffer.append(data)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        fflush(nil)  // whatever print() left in C's buffers goes first
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
