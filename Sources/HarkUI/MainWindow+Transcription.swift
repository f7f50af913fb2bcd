import CGtk
import GLibSupport
import GtkSupport

/// "Transcribe Messages…" in the main menu (`win.transcription`), and the
/// helper started as a recording starts while transcription is on (its model
/// is then loaded when the recording is saved).
extension MainWindow {
    func installTranscription() {
        guard let transcription else { return }
        Actions.add(to: UnsafeMutableRawPointer(window), "transcription") { [weak self] in
            self?.openTranscriptionDialog()
        }
        transcription.onSetupChange = { [weak self, weak transcription] in
            transcription?.dialog?.showState()
            self?.updateTranscriptionActions()  // "Transcribe All" only while it is on
        }
        guard let composer else { return }
        let showState = composer.onStateChange
        composer.onStateChange = { [weak composer, weak transcription] in
            showState()
            if composer?.isRecording == true { transcription?.prepare() }
        }
    }

    /// Opens the dialog, or brings the open one forward.
    func openTranscriptionDialog() {
        guard let transcription else { return }
        if let dialog = transcription.dialog, dialog.isOpen {
            dialog.present()
            return
        }
        let dialog = TranscriptionDialog(over: window, service: transcription)
        transcription.dialog = dialog
        Signal.connect(UnsafeMutableRawPointer(dialog.window), "destroy") { [weak transcription, weak dialog] in
            if let transcription, transcription.dialog === dialog { transcription.dialog = nil }
        }
        dialog.present()
    }
}
