import HarkModel
import Levels
import Localization
import MessageStore
import StoreAudio

/// Record while a draft is up goes on with the same take: the draft is put
/// aside, a new part is recorded (a take of its own, as the recorder writes
/// each to a file of its own), and once it is saved the two are joined into
/// the draft's one Ogg Opus file, levels and all; the draft comes back with
/// its start handle where it was and its end where the default trim of the
/// whole take puts it. A part that comes to nothing, or is thrown away,
/// gives the draft back as it was; a join that fails keeps both.
extension ComposerView {
    /// Takes that are no message of the room's yet: the draft, and, while it
    /// goes on, the part recorded on, until both are one.
    var withheldIDs: Set<String> {
        var ids = Set([draft?.message?.id, continuing?.message.id, joining?.draft, joining?.part].compactMap { $0 })
        if continuing != nil, let id = recordingID { ids.insert(id) }
        return ids
    }

    /// Record in a draft: it is put aside while the take goes on.
    func holdDraftWhileRecordingOn() {
        guard let draft, let message = draft.message else { return }
        continuing = (message, draft.selection)
        draft.clear()
    }

    /// The draft put aside, shown again as it was (the part recorded on came to nothing).
    func giveDraftBack() {
        guard let continuing else { return }
        self.continuing = nil
        showDraft((try? store.message(continuing.message.id)) ?? continuing.message, selection: continuing.selection)
    }

    /// Joins `part` (just saved) to the draft it went on from; then shows the
    /// whole take as the draft, or sends it (a hold let go).
    func join(_ part: Message, after draft: (message: Message, selection: TrimSelection), thenSend send: Bool) {
        joining = (draft.message.id, part.id)
        updateControls()
        Task { [weak self] in
            let joined: Message?
            let failure: StoreError?
            do throws(StoreError) {
                joined = try await self?.store.append(part.id, to: draft.message.id)
                failure = nil
            } catch {
                joined = nil
                failure = error
            }
            guard let self else { return }
            self.joining = nil
            guard let joined else {
                self.showDraft((try? self.store.message(draft.message.id)) ?? draft.message, selection: draft.selection)
                // TRANSLATORS: {reason} says why; the part just recorded stays in the room, unsent, as a message of its own.
                self.report(tr("Cannot add the new recording to the draft ({reason}): it is kept as a message of its own",
                               ["reason": failure.map { "\($0)" } ?? ""]))
                return
            }
            let levels = (try? self.store.levels(of: joined.id)) ?? LevelTrack()
            let end = TakeTrim(levels: levels, duration: joined.duration).kept.upperBound
            self.showDraft(joined, selection: TrimSelection(duration: joined.duration, kept: draft.selection.start...end))
            if send { self.sendDraft() }
        }
    }
}
