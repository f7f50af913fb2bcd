import Foundation
import Localization
import MessageStore

/// What a screen reader says for a message in the history: the row as one
/// sentence, and its controls named after the message, since a bare "Play"
/// among forty rows says nothing. Pure, so it is tested without a display.
enum RowDescription {
    /// "Dentist on Monday, Today at 5:15 PM, 19 seconds"; a received one
    /// says who from ("Voice message from Bob, …"), a sent one how its
    /// sending stands ("…, Not sent").
    /// `shownTime`: when the list places it, if not when it was recorded.
    static func name(of message: Message, at shownTime: Date? = nil, from sender: String? = nil, sendState: String? = nil,
                     now: Date = Date(), calendar: Calendar = .current, locale: Locale = DayGroups.userLocale) -> String {
        let when = shownTime ?? message.createdAt
        let day = DayGroups.title(of: calendar.startOfDay(for: when), now: now, calendar: calendar, locale: locale)
        let time = DayGroups.clockTime(when, calendar: calendar, locale: locale)
        // TRANSLATORS: a received message as a screen reader names it, "Voice message from Bob".
        let title = sender.map { tr("{title} from {sender}", ["title": message.title, "sender": $0]) } ?? message.title
        // TRANSLATORS: when a message was recorded, "Today at 5:15 PM", "Monday at 17:15".
        var parts = [title, tr("{day} at {time}", ["day": day, "time": time])]
        if let undecrypted = message.undecrypted {
            // Not decrypted (yet): no length to tell, only why.
            parts.append(undecrypted.sentence)
        } else {
            parts.append(DurationText.spoken(message.duration))
            if let state = audioState(of: message) { parts.append(state) }
        }
        if let sendState { parts.append(sendState) }
        // The screen reader's name: the message, then what the row says of it, as a list.
        // TRANSLATORS: what a screen reader says of a row: the message, then one more thing the row shows, as a list.
        return parts.dropFirst().reduce(parts[0]) { tr("{name}, {detail}", ["name": $0, "detail": $1]) }
    }

    /// Where a message's audio is, when it is not here.
    private static func audioState(of message: Message) -> String? {
        if message.isAwaitingDownload {
            // TRANSLATORS: a part of what a screen reader says of a received message whose audio is on its way.
            return tr("downloading")
        } else if message.downloadFailed {
            // TRANSLATORS: a part of what a screen reader says of a received message whose audio could not be downloaded.
            return tr("could not be downloaded")
        } else if message.state == .missing {
            // TRANSLATORS: a part of what a screen reader says of a message whose audio file is gone.
            return tr("audio file missing")
        }
        return nil
    }

    /// What the mark beside a message from a device its owner has not cross-signed says.
    static var unverifiedDevice: String { tr("Sent from a device its owner has not verified") }

    /// How a focused row is used, for the screen reader's description.
    static var keys: String { tr("Space plays or pauses, Left and Right seek, the Menu key opens the message menu") }
    /// A message whose audio is gone neither plays nor seeks.
    static var missingKeys: String { tr("Nothing to play: Delete deletes it, the Menu key opens the message menu") }
    /// A received message whose audio is on its way plays once it is here.
    static var downloadingKeys: String { tr("Downloading: it plays once its audio is here; the Menu key opens the message menu") }
    /// The take being recorded is no message yet.
    static var recordingKeys: String { tr("Being recorded: Escape cancels it") }

    /// How an item of the history is used: a message, one whose audio is
    /// missing, or the take being recorded (nil).
    static func keys(for message: Message?) -> String {
        guard let message else { return recordingKeys }
        if message.isAwaitingDownload { return downloadingKeys }
        return message.state == .missing ? missingKeys : keys
    }

    /// "Play Dentist on Monday", or "Pause Dentist on Monday" while it plays.
    static func playName(_ title: String, playing: Bool) -> String {
        playing ? tr("Pause {title}", ["title": title]) : tr("Play {title}", ["title": title])
    }

    /// The waveform's slider: "Position in Dentist on Monday".
    static func positionName(_ title: String) -> String {
        tr("Position in {title}", ["title": title])
    }

    /// The row's menu: "Menu for Dentist on Monday".
    static func menuName(_ title: String) -> String {
        tr("Menu for {title}", ["title": title])
    }

    /// A transcript's state in words, where it has no words of its own: nil
    /// for none and for a transcript made.
    static func transcriptState(_ state: TranscriptState, transcriptionOn: Bool) -> String? {
        switch state {
        case .none, .done: return nil
        case .queued: return transcriptionOn ? tr("Transcribing…") : tr("Not transcribed: transcription is off")
        case .failed: return tr("Transcript failed")
        case .empty: return tr("No speech")
        }
    }

    /// A row's transcript as a screen reader reads it, in the row's
    /// description: "Transcript: Dentist moved to Thursday.", or its state.
    static func transcript(of message: Message, transcriptionOn: Bool) -> String? {
        if message.transcriptState == .done, let text = message.transcript, !text.isEmpty { return tr("Transcript: {text}", ["text": text]) }
        return transcriptState(message.transcriptState, transcriptionOn: transcriptionOn)
    }

    /// A row's description: that its device was not verified (never shown
    /// as trusted), its transcript, if any, then how it is used.
    static func description(keys: String, transcript: String?, unverifiedDevice: Bool = false) -> String {
        if unverifiedDevice {
            // TRANSLATORS: a warning ("Sent from a device its owner has not verified"), then the rest of a row's description.
            return tr("{warning}. {description}", ["warning": Self.unverifiedDevice,
                                                    "description": description(keys: keys, transcript: transcript)])
        }
        guard let transcript, !transcript.isEmpty else { return keys }
        let ended = transcript.last.map { ".!?…。！？؟".contains($0) } ?? false
        // TRANSLATORS: a transcript that ends a sentence of its own, then how the row is used.
        return ended ? tr("{transcript} {keys}", ["transcript": transcript, "keys": keys])
            // TRANSLATORS: a transcript that ends without a full stop, then how the row is used.
            : tr("{transcript}. {keys}", ["transcript": transcript, "keys": keys])
    }
}
