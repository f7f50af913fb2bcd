import CGtk
import Levels

/// The draft's trim handles: where they stand is what plays, what the length
/// says and what Send sends.
extension DraftView {
    /// The part of the take kept.
    var selection: TrimSelection { handles.selection }

    func showHandles(_ selection: TrimSelection) {
        handles.set(selection)
        if let message { playback.setBounds(message.id, selection.kept) }
    }

    /// A handle moved: only the part between them plays, and the length follows.
    func trimMoved() {
        guard let message else { return }
        playback.setBounds(message.id, selection.kept)
        // What the default trim cut no longer says what is cut: the dimmed ends do.
        gtk_widget_set_visible(trimmed, 0)
        follow()
    }
}
