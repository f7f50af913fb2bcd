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
    let progress = InstallProgressView(name: tr("Setting up encryption"))
    let failureLabel: UnsafeMutablePointer<GtkWidget>
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

        gtk_box_append(hark_box(widget), progress.widget)

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
        gtk_widget_set_visible(progress.widget, busy ? 1 : 0)
        switch state {
        case .installing(let installing):
            progress.show(installing)
        case .settingUp:
            progress.show(tr("Setting up encryption for this device…"), fraction: 1)
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
