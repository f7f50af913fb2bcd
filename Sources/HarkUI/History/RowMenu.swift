import Localization
import MessageStore

/// A row's menu as it opens, pure: the items it shows for the message (each
/// a `history.…` action with the message's id), in sections, and which can
/// be chosen. Items that do not apply are left out (Send to… while signed
/// out, Delete for Everyone before a send, the transcript's without one);
/// Copy and Export show, greyed, while the audio is missing.
struct RowMenu: Equatable {
    struct Item: Equatable {
        let label: String
        let action: HistoryActions.Name
        var accel: String?
        var enabled = true
    }

    let sections: [[Item]]

    /// `message` nil: a row showing none (recycled), where nothing can be chosen.
    init(message: Message?, canSend: Bool, sendState: SendState?, transcribes: Bool) {
        let hasAudio = message.map { $0.state != .missing } ?? false
        let exists = message != nil
        let main = [Item(label: tr("_Rename…"), action: .rename, accel: "F2", enabled: exists),
                    Item(label: tr("_Copy"), action: .copy, accel: "<Control>c", enabled: hasAudio),
                    Item(label: tr("_Export…"), action: .export, accel: "<Control>e", enabled: hasAudio),
                    Item(label: tr("_Delete"), action: .delete, accel: "Delete", enabled: exists)]
        var conversation: [Item] = []
        if canSend && hasAudio { conversation.append(Item(label: tr("_Send to…"), action: .sendTo)) }
        if canSend && exists && sendState == .sent {
            conversation.append(Item(label: tr("Delete for _Everyone"), action: .deleteForEveryone))
        }
        var transcript: [Item] = []
        let state = message?.transcriptState ?? .none
        if message?.state == .ready, state == .none || state == .failed, transcribes {
            transcript.append(Item(label: tr("_Transcribe"), action: .transcribe))
        }
        if state == .done {
            transcript.append(Item(label: tr("Show _Whole Transcript"), action: .showTranscript))
            transcript.append(Item(label: tr("Cop_y Transcript"), action: .copyTranscript))
        }
        sections = [main, conversation, transcript].filter { !$0.isEmpty }
    }
}
