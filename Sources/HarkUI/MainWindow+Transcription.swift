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
        subscriptions.append(transcription.setupChanges.subscribe { [weak self] in
            self?.updateTranscriptionActions()  // "Transcribe All" only while it is on
        })
        guard let composer else { return }
        subscriptions.append(composer.stateChanges.subscribe { [weak composer, weak transcription] in
            if composer?.isRecording == true { transcription?.prepare() }
        })
    }

    /// Opens the dialog, or brings the open one forward.
    func openTranscriptionDialog() {
        guard let transcription else { return }
        if let dialog = transcriptionDialog, dialog.isOpen {
            dialog.present()
            return
        }
        let dialog = TranscriptionDialog(over: window, service: transcription)
        transcriptionDialog = dialog
        Signal.connect(UnsafeMutableRawPointer(dialog.window), "destroy") { [weak self, weak dialog] in
            if let self, self.transcriptionDialog === dialog { self.transcriptionDialog = nil }
        }
        dialog.present()
    }
}
