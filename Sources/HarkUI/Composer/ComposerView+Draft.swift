import CAdwaita
import CGtk
import GtkSupport
import HarkModel
import Levels
import Localization
import MessageStore
import StoreAudio

/// In a room, Stop leads to a draft: its trim handles stand where the
/// silence at its ends would be cut, it can be heard and sought, and goes
/// only with Send (cut to its handles), or is discarded, undoably. Record
/// while a draft is up goes on with the same take (ComposerView+Continue.swift).
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

    /// Shows the take just saved as the draft, its handles where the default trim cuts.
    func showDraft(_ message: Message, selection: TrimSelection? = nil) {
        guard let draft else { return takesSaved.send(message) }
        let levels = (try? store.levels(of: message.id)) ?? LevelTrack()
        // Handles given back (a take gone on) say by themselves what is cut.
        let trim = selection == nil ? TakeTrim(levels: levels, duration: message.duration) : nil
        draft.show(message, levels: levels, trimming: false, trim: trim, selection: selection)
        updateControls()
    }

    /// Let go after a hold: sent at once, trimmed as a draft is.
    func sendTrimmed(_ message: Message) {
        Task { [weak self] in
            _ = try? await self?.store.trimSilence(of: message.id)
            guard let self else { return }
            self.takesSaved.send((try? self.store.message(message.id)) ?? message)
        }
    }

    /// Send: the part of the draft between its handles goes to its room
    /// (and is the message kept); the draft waits while it is cut.
    func sendDraft() {
        guard let draft, let message = draft.message, !draft.isTrimming else { return }
        let selection = draft.selection
        guard selection.cutsAnything else {
            draft.clear()
            updateControls()
            return takesSaved.send(message)
        }
        let levels = (try? store.levels(of: message.id)) ?? LevelTrack()
        draft.show(message, levels: levels, trimming: true, selection: selection)
        updateControls()
        Task { [weak self] in
            let failure: StoreError?
            do throws(StoreError) {
                _ = try await self?.store.trim(message.id, keeping: selection.kept)
                failure = nil
            } catch {
                failure = error
            }
            guard let self, let draft = self.draft, draft.message?.id == message.id else { return }
            if let failure {
                // Nothing sent, nothing lost: the draft as it was, and why.
                draft.show(message, levels: levels, trimming: false, selection: selection)
                self.report(tr("Cannot trim the draft: {reason}", ["reason": "\(failure)"]))
            } else {
                draft.clear()
                self.takesSaved.send((try? self.store.message(message.id)) ?? message)
            }
            self.updateControls()
        }
    }

    /// Discard (Esc): the draft goes, with Undo.
    func discardDraft() {
        guard let draft, let message = draft.message, !draft.isTrimming else { return }
        draft.clear()
        updateControls()
        onDraftDiscarded(message)
    }

    /// Undo of a discarded draft: it is the draft again, unless another take
    /// or draft came meanwhile (then it is back as a message not sent yet).
    func restoreDraft(_ message: Message) -> Bool {
        guard let draft, draft.message == nil, recorder == nil, continuing == nil, joining == nil,
              let current = try? store.message(message.id) else { return false }
        showDraft(current)
        return true
    }
}
