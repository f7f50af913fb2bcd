import CGtk
import GtkSupport
import HarkModel

/// A draft's transcript: the take is transcribed while it is heard and
/// trimmed (the draft is the time it needs), shown under it as it comes.
extension MainWindow {
    func connectDraftTranscript(_ composer: ComposerView) {
        guard let store, let transcription else { return }
        let view = DraftTranscriptView(store: store)
        gtk_box_append(hark_box(composer.widget), view.widget)
        subscriptions.append(composer.stateChanges.subscribe { [weak composer, weak transcription] in
            let draft = composer?.draft
            let id = draft?.message?.id
            let trimming = draft?.isTrimming ?? false
            view.show(id, trimming: trimming)
            // Once trimmed, the take is what is transcribed: the newest queued, so the first.
            if id != nil, !trimming { transcription?.wake() }
        })
        subscriptions.append(transcription.transcribed.subscribe { [weak composer] id in
            guard id == view.messageID, let draft = composer?.draft else { return }
            view.show(id, trimming: draft.isTrimming)
        })
    }
}
