import Foundation
import Localization
import Matrix
import MessageStore

/// A received `m.audio` event as the store takes it: its title, time,
/// length, file type and the sender's waveform. Pure.
enum IncomingAudioMapping {
    static func incoming(_ event: RoomEvent, _ content: MessageContent, roomID: String,
                         unread: Bool) -> IncomingAudio? {
        guard let eventID = event.eventID, let url = content.url, content.isAudio else { return nil }
        let sentAt = event.originServerTimestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
        return IncomingAudio(eventID: eventID, roomID: roomID, sender: event.sender,
                             title: title(content), sentAt: sentAt,
                             duration: Double(content.durationMilliseconds ?? 0) / 1000,
                             fileExtension: fileExtension(mimeType: content.info?.mimetype,
                                                          name: content.fileName ?? content.body),
                             mediaURL: url, levels: content.levels, unread: unread, announcedSize: content.info?.size,
                             encrypted: event.wasEncrypted, unverifiedDevice: event.fromUnverifiedDevice,
                             senderTranscript: content.caption)
    }

    /// The body, which is "Voice message" for Element's voice messages and
    /// the file's name for an audio file; an empty one says which it was.
    /// Beside a caption (the sender's words), the file's name less its audio
    /// extension ("Dentist on Monday.ogg": "Dentist on Monday").
    static func title(_ content: MessageContent) -> String {
        let named = content.caption == nil ? nil : content.specFileName.map { ImportName.title(forFileAt: $0) }
        let body = (named ?? content.body)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !body.isEmpty { return String(body.prefix(200)) }
        return content.isVoice ? tr("Voice message") : tr("Audio message")
    }

    private static let extensions: [String: String] = [
        "audio/ogg": "ogg", "audio/opus": "opus", "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/wav": "wav",
        "audio/x-wav": "wav", "audio/wave": "wav", "audio/flac": "flac", "audio/x-flac": "flac", "audio/mp4": "m4a",
        "audio/aac": "aac", "audio/webm": "webm", "audio/x-m4a": "m4a",
    ]

    /// The extension the file is stored under: from its type, else from its
    /// name (letters and digits only), else "audio".
    static func fileExtension(mimeType: String?, name: String?) -> String {
        if let mimeType, let known = extensions[mimeType.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()] {
            return known
        }
        if let name, let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let suffix = name[name.index(after: dot)...].lowercased()
            if (1...5).contains(suffix.count), suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                return String(suffix)
            }
        }
        return "audio"
    }
}
