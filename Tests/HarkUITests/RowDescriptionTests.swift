import Foundation
@testable import HarkUI
@testable import MessageStore
import Testing

/// What a screen reader says for a history row, against a fixed clock:
/// Tuesday 1 December 2026, 15:00 UTC.
struct RowDescriptionTests {
    let calendar = FixedClock.calendar
    let now = FixedClock.now

    func message(_ title: String, hoursAgo: Double, seconds: Double, state: MessageState = .ready) -> Message {
        Message(id: "m", title: title, createdAt: now.addingTimeInterval(-hoursAgo * 3600), duration: seconds,
                fileName: "m.ogg", codec: "opus", state: state, deletedAt: nil, playPosition: 0)
    }

    @Test func aRowReadsAsItsTitleDayTimeAndDuration() {
        let locale = Locale(identifier: "en_US")
        #expect(RowDescription.name(of: message("Dentist on Monday", hoursAgo: 2, seconds: 19.4), now: now,
                                    calendar: calendar, locale: locale) == "Dentist on Monday, Today at 1:00 PM, 19 seconds")
        #expect(RowDescription.name(of: message("Call Anna", hoursAgo: 24, seconds: 65), now: now,
                                    calendar: calendar, locale: Locale(identifier: "en_GB"))
                == "Call Anna, Yesterday at 15:00, 1 minute 5 seconds")
        #expect(RowDescription.name(of: message("Gone", hoursAgo: 1, seconds: 1, state: .missing), now: now,
                                    calendar: calendar, locale: locale).hasSuffix(", 1 second, audio file missing"))
    }

    @Test func aRowSaysItsTimeInTheLocalesClockAndDigits() {
        let name = RowDescription.name(of: message("Dentist", hoursAgo: 2, seconds: 4), now: now,
                                       calendar: calendar, locale: Locale(identifier: "fa_IR"))
        #expect(name.hasPrefix("Dentist, Today at ۱۳:۰۰, "), "\(name)")
        let korean = RowDescription.name(of: message("Dentist", hoursAgo: 50, seconds: 4), now: now,
                                         calendar: calendar, locale: Locale(identifier: "ko_KR"))
        #expect(korean.hasPrefix("Dentist, 일요일 at 오후 1:00, "), "\(korean)")
    }

    @Test func aReceivedRowSaysWhoFromAndASentOneHowItsSendingStands() {
        let locale = Locale(identifier: "en_US")
        var received = message("Voice message", hoursAgo: 2, seconds: 4, state: .missing)
        received.origin = .received
        received.mediaURL = "mxc://localhost/a"
        #expect(RowDescription.name(of: received, from: "Bob", now: now, calendar: calendar, locale: locale)
                == "Voice message from Bob, Today at 1:00 PM, 4 seconds, downloading")
        received.downloadFailure = "it is larger than 100 MB, the most Hark downloads"
        #expect(RowDescription.name(of: received, from: "Bob", now: now, calendar: calendar, locale: locale)
                == "Voice message from Bob, Today at 1:00 PM, 4 seconds, could not be downloaded")
        #expect(RowDescription.keys(for: received) == RowDescription.missingKeys, "Delete deletes it")
        #expect(RowDescription.name(of: message("Dentist", hoursAgo: 2, seconds: 4), sendState: "Not sent", now: now,
                                    calendar: calendar, locale: locale) == "Dentist, Today at 1:00 PM, 4 seconds, Not sent")
    }

    @Test func anEncryptedRowNotReadYetSaysWhyAndAnUnverifiedOneIsNeverTrusted() {
        let locale = Locale(identifier: "en_US")
        var waiting = message("Encrypted message", hoursAgo: 2, seconds: 0, state: .missing)
        waiting.origin = .received
        waiting.undecrypted = Undecrypted(heldSince: now)
        #expect(RowDescription.name(of: waiting, from: "Bob", now: now, calendar: calendar, locale: locale)
                == "Encrypted message from Bob, Today at 1:00 PM, Waiting for this message's key",
                "no length, no download: only why it is not there")
        waiting.undecrypted?.withheld = "m.unverified"
        #expect(RowDescription.name(of: waiting, from: "Bob", now: now, calendar: calendar, locale: locale)
                .hasSuffix("The sender did not share this message's key with this device because it is not verified. "
                           + "Verify it with your recovery key to read what comes next."))
        #expect(RowDescription.keys(for: waiting) == RowDescription.missingKeys, "Delete deletes it")

        #expect(RowDescription.description(keys: "Keys", transcript: nil, unverifiedDevice: true)
                == "Sent from a device its owner has not verified. Keys")
        #expect(RowDescription.description(keys: "Keys", transcript: "Transcript: Hi.", unverifiedDevice: true)
                == "Sent from a device its owner has not verified. Transcript: Hi. Keys")
        #expect(RowDescription.description(keys: "Keys", transcript: nil) == "Keys")
    }

    @Test func aRowPlacedByWhenItWasSentReadsThatTime() {
        // Recorded two days ago, sent into the room two hours ago: the room reads it as it stands there.
        let name = RowDescription.name(of: message("Dentist", hoursAgo: 50, seconds: 4), at: now.addingTimeInterval(-2 * 3600),
                                       now: now, calendar: calendar, locale: Locale(identifier: "en_US"))
        #expect(name == "Dentist, Today at 1:00 PM, 4 seconds", "\(name)")
    }

    @Test func controlsAreNamedAfterTheirMessage() {
        #expect(RowDescription.playName("Dentist on Monday", playing: false) == "Play Dentist on Monday")
        #expect(RowDescription.playName("Dentist on Monday", playing: true) == "Pause Dentist on Monday")
        #expect(RowDescription.positionName("Groceries") == "Position in Groceries")
        #expect(RowDescription.menuName("Groceries") == "Menu for Groceries")
    }

    @Test func aTranscriptIsReadBeforeTheKeysAndItsStateInWords() {
        var said = message("Dentist", hoursAgo: 1, seconds: 4)
        #expect(RowDescription.transcript(of: said, transcriptionOn: true) == nil, "never transcribed: nothing said")
        said.transcriptState = .done
        said.transcript = "Dentist moved to Thursday."
        let transcript = RowDescription.transcript(of: said, transcriptionOn: true)
        #expect(transcript == "Transcript: Dentist moved to Thursday.")
        #expect(RowDescription.description(keys: RowDescription.keys, transcript: transcript)
                == "Transcript: Dentist moved to Thursday. " + RowDescription.keys)
        #expect(RowDescription.description(keys: RowDescription.keys, transcript: "Transcript failed")
                == "Transcript failed. " + RowDescription.keys)
        #expect(RowDescription.description(keys: RowDescription.keys, transcript: nil) == RowDescription.keys)
        said.transcriptState = .queued
        #expect(RowDescription.transcript(of: said, transcriptionOn: true) == "Transcribing…")
        #expect(RowDescription.transcript(of: said, transcriptionOn: false) == "Not transcribed: transcription is off")
        said.transcriptState = .failed
        #expect(RowDescription.transcript(of: said, transcriptionOn: true) == "Transcript failed")
        said.transcriptState = .empty
        said.transcript = ""
        #expect(RowDescription.transcript(of: said, transcriptionOn: true) == "No speech")
    }
}
