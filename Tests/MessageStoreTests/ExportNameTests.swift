import MessageStore
import Testing

/// File names for messages leaving the store: safe everywhere, still the title.
struct ExportNameTests {
    @Test func aTitleBecomesItsFileName() {
        #expect(ExportName.forTitle("Dentist on Monday", fileExtension: "ogg") == "Dentist on Monday.ogg")
        #expect(ExportName.forTitle("Café à côté", fileExtension: "mp3") == "Café à côté.mp3")
    }

    @Test func spacesOfEveryKindBecomePlainOnes() {
        // The narrow no-break space ICU puts before "PM", tabs, new lines, no-break spaces.
        #expect(ExportName.forTitle("1 Dec 2026 at 5:15\u{202F}PM", fileExtension: "ogg") == "1 Dec 2026 at 5.15 PM.ogg")
        #expect(ExportName.forTitle("a\tb\nc\u{00A0}d", fileExtension: "wav") == "a b c d.wav")
        #expect(ExportName.forTitle("two   spaces", fileExtension: "ogg") == "two spaces.ogg")
    }

    @Test func pathsHiddenNamesAndRefusedCharactersCannotSlipIn() {
        #expect(ExportName.forTitle("../../etc/passwd", fileExtension: "ogg") == "etc-passwd.ogg")
        #expect(ExportName.forTitle(".hidden", fileExtension: "ogg") == "hidden.ogg")
        #expect(ExportName.forTitle("a\\b", fileExtension: "ogg") == "a-b.ogg")
        #expect(ExportName.forTitle("why? <now> \"really\" | *", fileExtension: "ogg") == "why now really.ogg")
        #expect(ExportName.forTitle("zero\u{200B}width\u{0007}bell", fileExtension: "ogg") == "zerowidthbell.ogg")
    }

    @Test func nothingLeftIsStillAName() {
        #expect(ExportName.forTitle("", fileExtension: "ogg") == "Voice message.ogg")
        #expect(ExportName.forTitle(" ./ ", fileExtension: "ogg") == "Voice message.ogg")
        #expect(ExportName.forTitle("???", fileExtension: "") == "Voice message")
    }

    @Test func longTitlesAreCutToFitAFileSystem() {
        let name = ExportName.forTitle(String(repeating: "é", count: 300), fileExtension: "ogg")
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix("é.ogg"))
    }
}
