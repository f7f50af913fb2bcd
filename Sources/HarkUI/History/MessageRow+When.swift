import CGtk
import GtkSupport
import Localization
import MessageStore

extension MessageRow {
    /// Beside the title: when and how long ("5:15 PM · 0:19"), and while
    /// Skip Silence is on, what it saves ("5:15 PM · 0:19 · −4 s"; said in
    /// words in the tooltip).
    func showWhen() {
        guard let message, let placed = placedAt else { return }
        let saved = playback.skipsSilence ? Int(playback.skipping(of: message).savedSeconds.rounded()) : 0
        guard saved != shownSavedSeconds else { return }
        shownSavedSeconds = saved
        // TRANSLATORS: beside a message's title: when it was recorded and how long it lasts, "5:15 PM · 0:19".
        var text = tr("{time} · {duration}", ["time": DayGroups.clockTime(placed), "duration": DurationText.clock(message.duration)])
        var notes = [Self.processingNote(message.voiceProcessed)].compactMap { $0 }
        if saved > 0 {
            // TRANSLATORS: after a message's length while Skip Silence is on: the seconds it saves, "−4 s".
            text += " · " + tr("−{seconds} s", ["seconds": String(saved)])
            notes.append(trn("Skip Silence saves {count} second", "Skip Silence saves {count} seconds", saved,
                             ["count": String(saved)]))
        }
        gtk_label_set_text(hark_label(titleLine.when), text)
        gtk_widget_set_tooltip_text(titleLine.when, notes.isEmpty ? nil : notes.joined(separator: "\n"))
    }
}
