import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import HelperProcesses
import Localization

/// An engine's install as it goes: its step in a sentence over a bar with the
/// share done, for the eye and a screen reader alike (the transcription
/// dialog's, Set Up Encryption's).
@MainActor
struct InstallProgressView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let bar: UnsafeMutablePointer<GtkWidget>

    /// Hidden until shown; `name`: what a screen reader calls the bar.
    init(name: String) {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        label = SentenceLabel.make("")
        bar = gtk_progress_bar_new()!
        gtk_progress_bar_set_show_text(OpaquePointer(bar), 1)
        hark_accessible_set_label(UnsafeMutableRawPointer(bar), name)
        gtk_box_append(hark_box(widget), label)
        gtk_box_append(hark_box(widget), bar)
        gtk_widget_set_visible(widget, 0)
    }

    func show(_ progress: InstallProgress) {
        show(progress.text, fraction: progress.fraction)
    }

    func show(_ text: String, fraction: Double) {
        SentenceLabel.set(label, text)
        gtk_progress_bar_set_fraction(OpaquePointer(bar), fraction)
        gtk_progress_bar_set_text(OpaquePointer(bar), TranscriptionDialog.percentText(fraction))
        hark_accessible_set_value_text(UnsafeMutableRawPointer(bar), text)
    }
}
