import CGtk
import GtkSupport
import HarkModel
import MessageStore

/// A draft's transcript: the take is transcribed while it is heard and
/// trimmed (the draft is the time it needs), shown under it as it comes.
/// Send with "Send With Transcript" on, before the words are there, waits
/// for them (the transcriber's deadline bounds the wait; a failure sends
/// the voice alone).
extension MainWindow {
    func connectDraftTranscript(_ composer: ComposerView) {
        guard let store, let transcription, let draft = composer.draft else { return }
        let view = DraftTranscriptView(store: store)
        draftTranscript = view
        gtk_box_append(hark_box(composer.widget), view.widget)
        subscriptions.append(composer.stateChanges.subscribe { [weak view, weak draft, weak transcription] in
            guard let view, let draft else { return }
            let id = draft.message?.id
            if id != view.messageID { view.sendWhenTranscribed = nil }  // sent, discarded, or another take
            view.show(id, trimming: draft.isTrimming)
            // Once trimmed, the take is what is transcribed: the newest queued, so the first.
            if id != nil, !draft.isTrimming { transcription?.wake() }
        })
        subscriptions.append(transcription.transcribed.subscribe { [weak view, weak draft] id in
            guard let view, let draft, id == view.messageID else { return }
            view.show(id, trimming: draft.isTrimming)
            if let send = view.sendWhenTranscribed {
                view.sendWhenTranscribed = nil
                send()
            }
        })
        let send = draft.onSend
        draft.onSend = { [weak view, weak draft, weak transcription] in
            guard let view, let draft, let id = draft.message?.id, store.sendsWithTranscript,
                  transcription?.canTranscribe == true, (try? store.message(id))?.transcriptState == .queued else { return send() }
            view.sendWhenTranscribed = send
            gtk_widget_set_sensitive(draft.sendButton, 0)
            view.show(id, trimming: false)
        }
    }
}
