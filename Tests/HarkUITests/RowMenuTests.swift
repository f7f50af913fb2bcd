import Foundation
@testable import HarkUI
@testable import MessageStore
import Testing

/// What a row's menu offers for its message, as it opens: each item a
/// `history.…` action carrying the message's id.
struct RowMenuTests {
    func message(state: MessageState = .ready, transcript: TranscriptState = .none) -> Message {
        var message = Message(id: "m", title: "Dentist", createdAt: FixedClock.now, duration: 4, fileName: "m.ogg",
                              codec: "opus", state: state, deletedAt: nil, playPosition: 0)
        message.transcriptState = transcript
        return message
    }

    func offered(_ menu: RowMenu) -> [HistoryActions.Name] { menu.sections.flatMap { $0.map(\.action) } }
    func enabled(_ menu: RowMenu) -> [HistoryActions.Name] { menu.sections.flatMap { $0.filter(\.enabled).map(\.action) } }

    @Test func aMessageOffersItsOwnOperationsWithTheirKeys() {
        let menu = RowMenu(message: message(), canSend: false, sendState: nil, transcribes: false)
        #expect(offered(menu) == [.rename, .copy, .export, .delete])
        #expect(enabled(menu) == offered(menu))
        #expect(menu.sections.first?.map(\.accel) == ["F2", "<Control>c", "<Control>e", "Delete"])
    }

    @Test func withoutItsAudioCopyAndExportShowGreyed() {
        let menu = RowMenu(message: message(state: .missing), canSend: true, sendState: .sent, transcribes: true)
        #expect(offered(menu) == [.rename, .copy, .export, .delete, .deleteForEveryone])
        #expect(enabled(menu) == [.rename, .delete, .deleteForEveryone])
    }

    @Test func signedInItOffersSendToAndOnceSentDeleteForEveryone() {
        #expect(offered(RowMenu(message: message(), canSend: true, sendState: nil, transcribes: false))
                == [.rename, .copy, .export, .delete, .sendTo])
        #expect(offered(RowMenu(message: message(), canSend: true, sendState: .sent, transcribes: false))
                == [.rename, .copy, .export, .delete, .sendTo, .deleteForEveryone])
        #expect(!offered(RowMenu(message: message(), canSend: false, sendState: .sent, transcribes: false)).contains(.sendTo))
    }

    @Test func theTranscriptsItemsShowWhereTheyApply() {
        let transcriptItems: (RowMenu) -> [HistoryActions.Name] = { offered($0).filter { [.transcribe, .showTranscript, .copyTranscript].contains($0) } }
        #expect(transcriptItems(RowMenu(message: message(), canSend: false, sendState: nil, transcribes: false)) == [])
        #expect(transcriptItems(RowMenu(message: message(), canSend: false, sendState: nil, transcribes: true)) == [.transcribe])
        #expect(transcriptItems(RowMenu(message: message(transcript: .failed), canSend: false, sendState: nil, transcribes: true))
                == [.transcribe])
        #expect(transcriptItems(RowMenu(message: message(transcript: .queued), canSend: false, sendState: nil, transcribes: true)) == [])
        #expect(transcriptItems(RowMenu(message: message(transcript: .done), canSend: false, sendState: nil, transcribes: true))
                == [.showTranscript, .copyTranscript])
    }

    @Test func aRowShowingNoMessageOffersNothingToChoose() {
        let menu = RowMenu(message: nil, canSend: true, sendState: nil, transcribes: true)
        #expect(offered(menu) == [.rename, .copy, .export, .delete])
        #expect(enabled(menu) == [])
    }
}
