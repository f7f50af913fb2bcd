import HarkModel
import Localization
import MessageStore

/// The composer's drafts in a room: they play through the window's player,
/// are no row of the history until sent, and one discarded is deleted with
/// Undo, which brings the draft back.
extension MainWindow {
    func connectDrafts(_ composer: ComposerView, playback: PlaybackController) {
        composer.attach(playback: playback)
        // Not a message of the room's until it is sent: the list leaves it out.
        subscriptions.append(composer.stateChanges.subscribe { [weak self, weak composer] in
            self?.history?.withheld = composer?.withheldIDs ?? []
        })
        composer.onDraftDiscarded = { [weak self, weak composer] message in
            // TRANSLATORS: a toast, after the take heard before sending was thrown away (it has an Undo button).
            self?.delete(message, saying: tr("Draft discarded")) { composer?.restoreDraft(message) ?? false }
        }
    }
}
