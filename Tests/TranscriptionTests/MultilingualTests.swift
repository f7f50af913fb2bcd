import Foundation
import HarkTestSupport
import MessageStore
import XCTest

/// The multilingual model (Whisper base, installed by install-transcriber
/// --multilingual, as scripts/run-tests does) on speech in other languages
/// than English, spoken by espeak-ng and recorded through Hark's own Opus
/// path, chosen as the user would: `hark transcriber enable --language`.
final class MultilingualTests: XCTestCase {
    private static let german = [
        "Ich habe morgen einen Termin beim Zahnarzt.",
        "Kannst du bitte die Kinder von der Schule abholen?",
    ]
    private static let spanish = [
        "Mañana tengo una cita con el médico por la mañana.",
        "Por favor, compra pan y leche cuando vuelvas a casa.",
    ]

    /// Records `sentences` in `voice`, transcribes them with `language` and
    /// returns the word error rate over all of them.
    private func wordErrorRate(_ sentences: [String], voice: String, language: String) throws -> Double {
        let spoken = try SpokenMessages()
        let ids = try sentences.map { try spoken.record(saying: $0, asAMicrophone: false, voice: voice) }
        let (enabled, enableOutput) = try spoken.hark(["transcriber", "enable", "--language", language])
        XCTAssertEqual(enabled, 0, enableOutput)
        let (status, output) = try spoken.hark(["transcribe"] + ids)
        XCTAssertEqual(status, 0, output)
        let listed = try spoken.list()
        var errors = 0, said = 0
        for (id, sentence) in zip(ids, sentences) {
            let message = try XCTUnwrap(listed[id])
            XCTAssertEqual(message.transcript_state, "done", output)
            let reference = WordErrorRate.words(sentence)
            errors += WordErrorRate.errors(reference: reference,
                                           hypothesis: WordErrorRate.words(message.transcript ?? ""))
            said += reference.count
        }
        let rate = Double(errors) / Double(said)
        print("transcription: \(voice) (\(language)) word error rate \(Int((rate * 100).rounded())) % over \(said) words: \(output)")
        return rate
    }

    func testGermanSpeechComesBackInGermanWithTheLanguageDetected() throws {
        let rate = try wordErrorRate(Self.german, voice: "de", language: "auto")
        XCTAssertLessThan(rate, 0.3)
    }

    func testSpanishSpeechComesBackInSpanishWithTheLanguageFixed() throws {
        let rate = try wordErrorRate(Self.spanish, voice: "es", language: "es")
        XCTAssertLessThan(rate, 0.3)
    }

    func testEnglishOnlyModelDoesNotGetOtherLanguagesRight() throws {
        // What the multilingual model is for: the English model on the same
        // German speech writes something else (so the tests above measure it).
        let rate = try wordErrorRate(Self.german, voice: "de", language: "en")
        XCTAssertGreaterThan(rate, 0.5)
    }
}
