import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// What every row of a history shares about transcripts: which are open
/// (rows are recycled, so it is kept by message), the search's words to
/// show bold, and the window's work.
@MainActor
final class TranscriptContext {
    /// The messages whose whole transcript is shown.
    var expanded: Set<String> = []
    /// The words of the search shown, if any (`SearchQuery.words`).
    var searchWords: [String] = []
    /// "Transcribe" in a row's menu: queue it.
    var onTranscribe: @MainActor (Message) -> Void = { _ in }
    /// "Copy Transcript" in a row's menu.
    var onCopy: @MainActor (Message) -> Void = { _ in }
}

/// A row's transcript: shown under the waveform, followed while it plays,
/// and its menu items (Transcribe, Show Whole Transcript, Copy Transcript).
extension MessageRow {
    static let transcribeAction = "transcribe"
    static let expandTranscriptAction = "show-transcript"
    static let copyTranscriptAction = "copy-transcript"

    /// Wires the view to the row (once, from init).
    func setUpTranscript() {
        transcriptView.onToggle = { [weak self] in self?.toggleTranscript() }
        transcriptView.onSeek = { [weak self] seconds in self?.seekToSegment(at: seconds) }
        transcriptView.loadSegments = { [weak self] in
            guard let self, let message = self.message, message.transcriptState == .done else { return [] }
            return (try? self.store.transcriptSegments(of: message.id)) ?? []
        }
    }

    /// Shows the message's transcript as it is now, and its menu items.
    func showTranscript() {
        guard let message else { return }
        let on = message.transcriptState == .queued && store.transcribesNewMessages  // read only where it tells
        let failure = message.transcriptState == .failed ? try? store.transcriptError(of: message.id) : nil
        transcriptView.show(message, searchWords: transcriptContext.searchWords, transcriptionOn: on, failure: failure)
        transcriptView.setExpanded(transcriptContext.expanded.contains(message.id))
        followTranscript()
        updateTranscriptActions()
    }

    /// Opens or closes the whole transcript.
    func toggleTranscript() {
        guard let message, message.transcriptState == .done else { return }
        if transcriptContext.expanded.contains(message.id) {
            transcriptContext.expanded.remove(message.id)
        } else {
            transcriptContext.expanded.insert(message.id)
        }
        showTranscript()
    }

    /// Highlights the segment being spoken while this message is the one playing.
    func followTranscript() {
        guard let message else { return }
        transcriptView.highlight(at: playback.currentID == message.id ? playback.position(of: message) : nil)
    }

    /// A segment was clicked: the message goes there, as a click on the waveform would.
    func seekToSegment(at seconds: Double) {
        guard let message, message.state != .missing else { return }
        waveform.position = seconds
        waveform.onSeek(seconds)
        transcriptView.highlight(at: playback.currentID == message.id ? seconds : nil)
    }

    /// The transcript's menu items: each shown only where it applies.
    func updateTranscriptActions() {
        guard let group = actionGroup else { return }
        let state = message?.transcriptState ?? .none
        let ready = message.map { $0.state == .ready } ?? false
        let enable = { (name: String, on: Bool) in
            if let action = g_action_map_lookup_action(group, name) {
                g_simple_action_set_enabled(action, on ? 1 : 0)
            }
        }
        enable(Self.transcribeAction, ready && (state == .none || state == .failed) && store.transcribesNewMessages)
        enable(Self.expandTranscriptAction, state == .done)
        enable(Self.copyTranscriptAction, state == .done)
        if let action = g_action_map_lookup_action(group, Self.expandTranscriptAction) {
            g_simple_action_set_state(action, g_variant_new_boolean(transcriptView.isExpanded ? 1 : 0))
        }
    }

    /// Adds the transcript's actions to the row's group; `add` makes one
    /// whose work waits for the menu to go.
    func addTranscriptActions(to map: UnsafeMutableRawPointer,
                              _ add: (String, @escaping @MainActor (MessageRow, Message) -> Void) -> OpaquePointer) {
        _ = add(Self.transcribeAction) { row, message in row.transcriptContext.onTranscribe(message) }
        _ = add(Self.copyTranscriptAction) { row, message in row.transcriptContext.onCopy(message) }
        let expand = g_simple_action_new_stateful(Self.expandTranscriptAction, nil, g_variant_new_boolean(0))!
        Signal.connectPointer(UnsafeMutableRawPointer(expand), "change-state") { [weak self] _ in self?.toggleTranscript() }
        g_action_map_add_action(OpaquePointer(map), expand)
        g_object_unref(UnsafeMutableRawPointer(expand))
    }

    /// The menu's transcript section; its items hide where they do not apply.
    static func transcriptMenuSection() -> UnsafeMutablePointer<GMenuModel> {
        let section = g_menu_new()!
        for (label, action) in [(tr("_Transcribe"), transcribeAction), (tr("Show _Whole Transcript"), expandTranscriptAction),
                                (tr("Cop_y Transcript"), copyTranscriptAction)] {
            let entry = g_menu_item_new(label, "row." + action)!
            g_menu_item_set_attribute_value(entry, "hidden-when", g_variant_new_string("action-disabled"))
            g_menu_append_item(section, entry)
            g_object_unref(UnsafeMutableRawPointer(entry))
        }
        return UnsafeMutableRawPointer(section).assumingMemoryBound(to: GMenuModel.self)
    }
}
