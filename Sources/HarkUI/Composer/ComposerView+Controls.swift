import AudioEngine
import CGtk
import GtkSupport
import Localization
import MessageStore
import Subscriptions

/// The composer's controls brought up to date with the recording: which are
/// shown, their names, tooltips and icons, the notice and the hold hint.
extension ComposerView {
    func updateControls() {
        let recording = recorder != nil
        let paused = recorder?.state == .paused
        gtk_widget_set_visible(recordingBox, recording ? 1 : 0)
        gtk_widget_set_visible(hint, recording || naming.isOffered || hasDraft ? 0 : 1)
        // In a room Stop leads to the draft, where the take is heard before Send.
        let reviews = roomID != nil && draft != nil
        // TRANSLATORS: the round button's name for a screen reader: it records, and stops once recording.
        let stopName = reviews ? tr("Stop and review") : tr("Stop")
        // TRANSLATORS: the round button's name while a draft is up: it records more of the same take.
        let recordName = recording ? stopName : hasDraft ? tr("Continue recording") : tr("Record")
        PressButton.setIcon(recordIcon, recording ? "media-playback-stop-symbolic" : "media-record-symbolic")
        // Unavailable here (an encrypted room): the button says why, and so does the hint.
        let blocked = !recording ? unavailableReason : nil
        gtk_widget_set_sensitive(recordButton, blocked == nil ? 1 : 0)
        gtk_label_set_text(hark_label(hint), blocked ?? Self.hintText)
        let stopTip = reviews ? tr("Stop and review before sending (Ctrl+R)") : tr("Stop and save (Ctrl+R)")
        // TRANSLATORS: Record's tooltip while a draft is up: what is recorded now is added to the end of the draft.
        let recordTip = hasDraft ? tr("Continue recording (Ctrl+R)") : tr("Record (Ctrl+R)")
        gtk_widget_set_tooltip_text(recordButton, recording ? stopTip : blocked ?? recordTip)
        showHold(away: hold.isAway)  // after the tooltip: a held button shows none
        hark_accessible_set_label(UnsafeMutableRawPointer(recordButton), recordName)
        if let recorder, recorder.state == .paused || recorder.state == .recording {
            showClock(elapsed: recorder.elapsed)
        }
        // TRANSLATORS: the button that pauses the recording, and resumes it once paused.
        let pauseName = paused ? trc("recording", "Resume") : trc("recording", "Pause")
        PressButton.setIcon(pauseIcon, paused ? "media-record-symbolic" : "media-playback-pause-symbolic")
        gtk_widget_set_tooltip_text(pauseButton, pauseName)
        hark_accessible_set_label(UnsafeMutableRawPointer(pauseButton), pauseName)
        gtk_widget_set_tooltip_text(cancelButton, tr("Cancel (Esc)"))
        hark_accessible_set_label(UnsafeMutableRawPointer(cancelButton), tr("Cancel"))
        updateNotice()
        stateChanges.send()
    }

    /// Shows what is wrong with the input, if anything: while recording, the
    /// recorder's check of the raw input; at any time, a default input that
    /// is no microphone.
    func updateNotice() {
        let text: String?
        if let problem {
            text = problem
        } else {
            text = inputNotice
        }
        gtk_label_set_text(hark_label(notice), text ?? "")
        gtk_widget_set_visible(notice, text == nil ? 0 : 1)
        if problem != nil {
            gtk_widget_remove_css_class(notice, "warning")
            gtk_widget_add_css_class(notice, "error")
        } else {
            gtk_widget_remove_css_class(notice, "error")
            gtk_widget_add_css_class(notice, "warning")
        }
    }

    /// While Record is held: what releasing will do.
    func showHold(away: Bool) {
        let holding = hold.isHolding && recorder != nil
        // Record's tooltip ("Stop and save") is not what the held button
        // does; the hint says it. Back when the hold ends.
        if holding, gtk_widget_get_has_tooltip(recordButton) != 0 {
            gtk_widget_set_has_tooltip(recordButton, 0)
            gtk_widget_trigger_tooltip_query(recordButton)  // hides the one shown
        }
        gtk_widget_set_visible(holdHint, holding ? 1 : 0)
        gtk_label_set_text(hark_label(holdHint), away ? tr("Release to cancel") : tr("Release to save"))
        if away { gtk_widget_add_css_class(holdHint, "error") } else { gtk_widget_remove_css_class(holdHint, "error") }
    }
}
