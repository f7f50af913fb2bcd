import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The window's part in transcripts: a row's "Transcribe" and "Copy
/// Transcript", the main menu's "Transcribe All", and each transcript that
/// arrives shown in its own row only.
extension MainWindow {
    static let transcribeAllAction = "transcribe-all"

    /// Wires the history's transcripts to the store and the service (once, from init).
    func installTranscripts(on map: UnsafeMutableRawPointer) {
        guard let history, let transcription else { return }
        subscriptions.append(transcription.transcribed.subscribe { [weak self] id in
            self?.history?.apply(.changed(id))
            // A transcript may have titled it: the title offered after Stop follows.
            if let message = try? self?.store?.message(id) { self?.composer?.naming.follow(message) }
        })
        history.actions.add(.transcribe) { [weak self] in self?.transcribe([$0]) }
        history.actions.add(.copyTranscript) { [weak self] in self?.copyTranscript(of: $0) }
        Actions.add(to: map, Self.transcribeAllAction) { [weak self] in self?.transcribeAll() }
        updateTranscriptionActions()
    }

    /// "Transcribe All" is offered only while transcription is on (the
    /// setting may change in the dialog, or in another process).
    func updateTranscriptionActions() {
        guard let store, let action = g_action_map_lookup_action(OpaquePointer(window), Self.transcribeAllAction) else { return }
        g_simple_action_set_enabled(action, store.transcribesNewMessages ? 1 : 0)
    }

    /// Queues `messages` (a row's "Transcribe"): their rows say "Transcribing…" at once.
    func transcribe(_ messages: [Message]) {
        guard let store else { return }
        do {
            try store.queueTranscription(messages.map(\.id))
        } catch {
            toast(tr("Nothing could be queued for transcription: {reason}", ["reason": "\(error)"]), seconds: Self.problemSeconds)
            return
        }
        messages.forEach { history?.apply(.changed($0.id)) }
        transcription?.wake()
    }

    /// Queues every message without a transcript, newest first.
    func transcribeAll() {
        guard let store, store.transcribesNewMessages else { return }
        let queued: [String]
        do { queued = try store.queueAllUntranscribed() } catch {
            toast(tr("Nothing could be queued for transcription: {reason}", ["reason": "\(error)"]), seconds: Self.problemSeconds)
            return
        }
        guard !queued.isEmpty else {
            toast(tr("Every message already has a transcript, or is waiting for one."))
            return
        }
        let ids = Set(queued)
        for row in history?.liveRows ?? [] {
            if let id = row.message?.id, ids.contains(id) { history?.apply(.changed(id)) }
        }
        transcription?.wake()
        toast(trn("{count} message will be transcribed.", "{count} messages will be transcribed.", queued.count))
    }

    /// Puts a message's transcript on the clipboard, as text.
    func copyTranscript(of message: Message) {
        guard let text = (try? store?.message(message.id))?.transcript ?? message.transcript, !text.isEmpty else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(Widget.widget(window)), text)
        toast(tr("Transcript of “{title}” copied", ["title": message.title]))
    }
}
