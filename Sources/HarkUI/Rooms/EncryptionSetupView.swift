import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Localization
import Subscriptions

/// "Set Up Encryption": the button that installs the encryption engine and
/// sets it up in the running session (AccountModel.setUpEncryption), the
/// installer's progress while it runs, and why it failed when it did. In an
/// encrypted room's empty page and in the account dialog alike; each one
/// follows the account's one setup.
@MainActor
final class EncryptionSetupView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    let progressBar: UnsafeMutablePointer<GtkWidget>
    let progressLabel: UnsafeMutablePointer<GtkWidget>
    let failureLabel: UnsafeMutablePointer<GtkWidget>
    private let progressBox: UnsafeMutablePointer<GtkWidget>
    private let account: AccountModel
    private var observation: Subscription?

    init(account: AccountModel) {
        self.account = account
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        button = gtk_button_new_with_mnemonic(tr("Set Up _Encryption"))!
        ButtonNames.name(button)
        gtk_widget_add_css_class(button, "suggested-action")
        gtk_widget_add_css_class(button, "pill")
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(button, tr("Installs Hark’s encryption engine (about 1 MB, once) and opens encrypted rooms."))
        gtk_box_append(hark_box(widget), button)

        progressBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        progressLabel = SentenceLabel.make("")
        progressBar = gtk_progress_bar_new()!
        gtk_progress_bar_set_show_text(OpaquePointer(progressBar), 1)
        hark_accessible_set_label(UnsafeMutableRawPointer(progressBar), tr("Setting up encryption"))
        gtk_box_append(hark_box(progressBox), progressLabel)
        gtk_box_append(hark_box(progressBox), progressBar)
        gtk_box_append(hark_box(widget), progressBox)

        failureLabel = SentenceLabel.make("")
        gtk_widget_add_css_class(failureLabel, "error")
        gtk_box_append(hark_box(widget), failureLabel)

        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in self?.account.setUpEncryption() }
        observation = account.encryptionSetup.changes.subscribe { [weak self] _ in self?.showState() }
        showState()
    }

    /// The setup's state: the button while there is nothing to wait for, the progress while installing.
    func showState() {
        let state = account.encryptionSetup.state
        let busy = account.encryptionSetup.isBusy
        gtk_widget_set_visible(button, busy ? 0 : 1)
        let failed: Bool = { if case .failed = state { return true } else { return false } }()
        gtk_button_set_label(hark_button(button), failed ? tr("Try _Again") : tr("Set Up _Encryption"))
        ButtonNames.name(button)
        gtk_widget_set_visible(progressBox, busy ? 1 : 0)
        switch state {
        case .installing(let progress):
            SentenceLabel.set(progressLabel, progress.text)
            gtk_progress_bar_set_fraction(OpaquePointer(progressBar), progress.fraction)
            gtk_progress_bar_set_text(OpaquePointer(progressBar), TranscriptionDialog.percentText(progress.fraction))
            hark_accessible_set_value_text(UnsafeMutableRawPointer(progressBar), progress.text)
        case .settingUp:
            SentenceLabel.set(progressLabel, tr("Setting up encryption for this device…"))
            gtk_progress_bar_set_fraction(OpaquePointer(progressBar), 1)
            gtk_progress_bar_set_text(OpaquePointer(progressBar), TranscriptionDialog.percentText(1))
        case .idle, .failed:
            break
        }
        if case .failed(let sentence) = state {
            SentenceLabel.set(failureLabel, sentence)
            hark_accessible_set_description(UnsafeMutableRawPointer(button), sentence)
        }
        gtk_widget_set_visible(failureLabel, failed ? 1 : 0)
    }
}
