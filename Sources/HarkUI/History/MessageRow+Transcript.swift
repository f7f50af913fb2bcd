import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// What every row of a history shares about transcripts: which are open
/// (rows are recycled, so it is kept by message) and the search's words to
/// show bold.
@MainActor
final class TranscriptContext {
    /// The messages whose whole transcript is shown.
    var expanded: Set<String> = []
    /// The words of the search shown, if any (`SearchQuery.words`).
    var searchWords: [String] = []
}

/// A row's transcript: shown under the waveform, followed while it plays,
/// opened into segments that seek (its menu items: see RowMenu).
extension MessageRow {
    /// "Show Whole Transcript" in the row's menu (see makeMenu).
    static let transcriptToggleAction = "row.show-transcript"

    /// Wires the view to the row, and its menu's check item (once, from init).
    func setUpTranscript() {
        let group = g_simple_action_group_new()!
        let toggle = g_simple_action_new_stateful("show-transcript", nil, g_variant_new_boolean(0))!
        Signal.connectPointer(UnsafeMutableRawPointer(toggle), "activate") { [weak self] _ in self?.toggleTranscript() }
        g_action_map_add_action(OpaquePointer(group), toggle)
        g_object_unref(UnsafeMutableRawPointer(toggle))
        transcriptToggle = toggle
        gtk_widget_insert_action_group(widget, "row", OpaquePointer(group))
        g_object_unref(UnsafeMutableRawPointer(group))  // the row's widget holds it
        transcriptView.onToggle = { [weak self] in self?.toggleTranscript() }
        transcriptView.onSeek = { [weak self] seconds in self?.seekToSegment(at: seconds) }
        transcriptView.loadSegments = { [weak self] in
            guard let self, let message = self.message, message.transcriptState == .done else { return [] }
            return (try? self.store.transcriptSegments(of: message.id)) ?? []
        }
    }

    /// Shows the message's transcript as it is now.
    func showTranscript() {
        guard let message else { return }
        let on = message.transcriptState == .queued && store.transcribesNewMessages  // read only where it tells
        let failure = message.transcriptState == .failed ? try? store.transcriptError(of: message.id) : nil
        transcriptView.show(message, searchWords: transcriptContext.searchWords, transcriptionOn: on, failure: failure)
        transcriptView.setExpanded(transcriptContext.expanded.contains(message.id))
        followTranscript()
    }

    /// Opens or closes the whole transcript (as the menu's Show Whole Transcript does).
    func toggleTranscript() {
        guard let message else { return }
        actions?.activate(.showTranscript, message.id)
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
}
