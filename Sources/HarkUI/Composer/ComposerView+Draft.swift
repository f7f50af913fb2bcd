import CAdwaita
import CGtk
import GtkSupport
import HarkModel
import Levels
import MessageStore
import StoreAudio

/// In a room, Stop leads to a draft: the take is trimmed of the silence at
/// its ends, can be heard and sought, and goes only with Send (or is
/// discarded, undoably). The recorder writes each take to a file of its
/// own and cannot add to one, so Record while a draft is up discards the
/// draft (with Undo) and begins a new take.
extension ComposerView {
    /// Drafts need the app's player; without it a take in a room is sent at Stop.
    func attach(playback: PlaybackController) {
        let draft = DraftView(playback: playback)
        gtk_box_append(hark_box(row), draft.widget)
        draft.onSend = { [weak self] in self?.sendDraft() }
        draft.onDiscard = { [weak self] in self?.discardDraft() }
        self.draft = draft
        updateControls()
    }

    var hasDraft: Bool { draft?.message != nil }

    /// Shows the take just saved as the draft, and trims it.
    func showDraft(_ message: Message) {
        guard let draft else { return takesSaved.send(message) }
        draft.show(message, levels: (try? store.levels(of: message.id)) ?? LevelTrack(), trimming: true)
        updateControls()
        Task { [weak self] in
            let trim = try? await self?.store.trimSilence(of: message.id)
            guard let self, let draft = self.draft, draft.message?.id == message.id else { return }
            let current = (try? self.store.message(message.id)) ?? message
            draft.show(current, levels: (try? self.store.levels(of: message.id)) ?? LevelTrack(), trimming: false,
                       trim: trim ?? nil)
            self.updateControls()
        }
    }

    /// Let go after a hold: sent at once, trimmed as a draft is.
    func sendTrimmed(_ message: Message) {
        Task { [weak self] in
            _ = try? await self?.store.trimSilence(of: message.id)
            guard let self else { return }
            self.takesSaved.send((try? self.store.message(message.id)) ?? message)
        }
    }

    /// Send: the draft (as trimmed) goes to its room.
    func sendDraft() {
        guard let draft, let message = draft.message, !draft.isTrimming else { return }
        let current = (try? store.message(message.id)) ?? message
        draft.clear()
        updateControls()
        takesSaved.send(current)
    }

    /// Discard (Esc): the draft goes, with Undo.
    func discardDraft() {
        guard let draft, let message = draft.message else { return }
        draft.clear()
        updateControls()
        onDraftDiscarded(message)
    }

    /// Undo of a discarded draft: it is the draft again, unless another take
    /// or draft came meanwhile (then it is back as a message not sent yet).
    func restoreDraft(_ message: Message) -> Bool {
        guard let draft, draft.message == nil, recorder == nil, let current = try? store.message(message.id) else { return false }
        draft.show(current, levels: (try? store.levels(of: message.id)) ?? LevelTrack(), trimming: false)
        updateControls()
        return true
    }
}
