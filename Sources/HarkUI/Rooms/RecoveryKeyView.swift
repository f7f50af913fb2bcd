import CAdwaita
import CGLib
import CGtk
import Conversations
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Localization

/// Whether this device is verified (cross-signed by the account's identity),
/// and the way to verify it: the recovery key or its passphrase
/// (CrossSigning.verifyThisDevice), or, for an account without an identity,
/// Create Recovery Key (CrossSigning.createIdentity, with the password when
/// the server asks for it), the new key then shown once, to copy and keep.
@MainActor
final class RecoveryKeyView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let statusLabel: UnsafeMutablePointer<GtkWidget>
    let keyRow: UnsafeMutablePointer<GtkWidget>
    let passwordRow: UnsafeMutablePointer<GtkWidget>
    let verifyButton: UnsafeMutablePointer<GtkWidget>
    let createButton: UnsafeMutablePointer<GtkWidget>
    let errorLabel: UnsafeMutablePointer<GtkWidget>
    let newKeyLabel: UnsafeMutablePointer<GtkWidget>
    let copyButton: UnsafeMutablePointer<GtkWidget>
    private let whyLabel: UnsafeMutablePointer<GtkWidget>
    private let form: UnsafeMutablePointer<GtkWidget>
    private let newKeyBox: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let account: AccountModel
    private let lifetime: WidgetLifetime
    /// What the server said of the account's identity, nil until it answered.
    private var status: (hasIdentity: Bool, deviceCrossSigned: Bool)?
    /// Asking the server, verifying or creating now.
    private(set) var isBusy = false

    static var why: String {
        tr("Other people’s apps share keys only with devices you have verified: "
           + "enter your recovery key (or its passphrase) to verify this one, and hear their encrypted messages here.")
    }

    init(account: AccountModel) {
        self.account = account
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        lifetime = WidgetLifetime(of: widget)
        statusLabel = SentenceLabel.make("")
        gtk_widget_add_css_class(statusLabel, "heading")
        gtk_box_append(hark_box(widget), statusLabel)

        form = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        whyLabel = SentenceLabel.make(Self.why)
        gtk_box_append(hark_box(form), whyLabel)
        let group = adw_preferences_group_new()!
        keyRow = adw_password_entry_row_new()!
        passwordRow = adw_password_entry_row_new()!
        for (row, title) in [(keyRow, tr("Recovery Key or Passphrase")), (passwordRow, tr("Password"))] {
            adw_preferences_row_set_title(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self), title)
            adw_preferences_group_add(UnsafeMutableRawPointer(group).assumingMemoryBound(to: AdwPreferencesGroup.self), row)
        }
        gtk_widget_set_visible(passwordRow, 0)
        gtk_box_append(hark_box(form), group)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        spinner = gtk_spinner_new()!
        gtk_widget_set_visible(spinner, 0)
        verifyButton = gtk_button_new_with_mnemonic(tr("_Verify This Device"))!
        createButton = gtk_button_new_with_mnemonic(tr("Create _Recovery Key"))!
        for button in [verifyButton, createButton] {
            ButtonNames.name(button)
            gtk_widget_add_css_class(button, "suggested-action")
            gtk_widget_add_css_class(button, "pill")
        }
        gtk_box_append(hark_box(buttons), spinner)
        gtk_box_append(hark_box(buttons), verifyButton)
        gtk_box_append(hark_box(buttons), createButton)
        gtk_box_append(hark_box(form), buttons)
        gtk_box_append(hark_box(widget), form)

        errorLabel = SentenceLabel.make("")
        gtk_widget_add_css_class(errorLabel, "error")
        gtk_widget_set_visible(errorLabel, 0)
        gtk_box_append(hark_box(widget), errorLabel)

        // The new key, shown once.
        newKeyBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_box_append(hark_box(newKeyBox), SentenceLabel.make(
            tr("This is your recovery key. Keep it somewhere safe, such as a password manager: "
               + "Hark shows it only now, and it verifies your other devices.")))
        newKeyLabel = SentenceLabel.make("")
        gtk_label_set_selectable(hark_label(newKeyLabel), 1)
        gtk_widget_add_css_class(newKeyLabel, "monospace")
        hark_accessible_set_label(UnsafeMutableRawPointer(newKeyLabel), tr("Recovery key"))
        gtk_box_append(hark_box(newKeyBox), newKeyLabel)
        copyButton = gtk_button_new_with_mnemonic(tr("_Copy"))!
        ButtonNames.name(copyButton)
        gtk_widget_add_css_class(copyButton, "pill")
        gtk_widget_set_halign(copyButton, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(newKeyBox), copyButton)
        gtk_widget_set_visible(newKeyBox, 0)
        gtk_box_append(hark_box(widget), newKeyBox)

        adw_entry_row_set_activates_default(UnsafeMutableRawPointer(keyRow).assumingMemoryBound(to: AdwEntryRow.self), 0)
        Signal.connect(UnsafeMutableRawPointer(keyRow), "changed") { [weak self] in self?.updateButtons() }
        Signal.connect(UnsafeMutableRawPointer(keyRow), "entry-activated") { [weak self] in self?.verify() }
        Signal.connect(UnsafeMutableRawPointer(passwordRow), "entry-activated") { [weak self] in self?.create() }
        Signal.connect(UnsafeMutableRawPointer(verifyButton), "clicked") { [weak self] in self?.verify() }
        Signal.connect(UnsafeMutableRawPointer(createButton), "clicked") { [weak self] in self?.create() }
        Signal.connect(UnsafeMutableRawPointer(copyButton), "clicked") { [weak self] in self?.copyKey() }
        show()
    }

    /// Asks the server whether this device is verified, and shows it.
    func refresh() {
        guard !isBusy, let crossSigning = account.crossSigning else { return }
        status = nil
        setBusy(true)
        Task { [weak self] in
            let answer: (hasIdentity: Bool, deviceCrossSigned: Bool)?
            var problem: String?
            do throws(CrossSigning.Failure) {
                answer = try await crossSigning.status()
            } catch {
                answer = nil
                problem = error.description
            }
            guard let self, self.lifetime.isAlive else { return }
            self.status = answer
            self.setBusy(false)
            self.showError(problem)
        }
    }

    private func text(_ row: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(OpaquePointer(row)))
    }

    func verify() {
        let typed = text(keyRow).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !isBusy, !typed.isEmpty, let crossSigning = account.crossSigning else { return }
        run { () throws(CrossSigning.Failure) in
            try await crossSigning.verifyThisDevice(with: typed)
            return nil
        }
    }

    func create() {
        guard !isBusy, let crossSigning = account.crossSigning else { return }
        let password = text(passwordRow)
        run { () throws(CrossSigning.Failure) in
            try await crossSigning.createIdentity(password: password.isEmpty ? nil : password)
        }
    }

    /// Does `work` with the spinner turning; then shows the device verified
    /// (and the new key it returned), or why not.
    private func run(_ work: @escaping @MainActor () async throws(CrossSigning.Failure) -> String?) {
        showError(nil)
        setBusy(true)
        Task { [weak self] in
            var newKey: String?
            var failure: CrossSigning.Failure?
            do throws(CrossSigning.Failure) { newKey = try await work() } catch { failure = error }
            guard let self, self.lifetime.isAlive else { return }
            self.setBusy(false)
            switch failure {
            case nil:
                gtk_editable_set_text(OpaquePointer(self.keyRow), "")
                gtk_editable_set_text(OpaquePointer(self.passwordRow), "")
                self.status = (true, true)
                if let newKey {
                    SentenceLabel.set(self.newKeyLabel, newKey)
                    gtk_widget_set_visible(self.newKeyBox, 1)
                }
                self.show()
            case .passwordNeeded?:
                gtk_widget_set_visible(self.passwordRow, 1)
                self.showError(tr("The server asks for your password before it takes the new identity keys."))
                gtk_widget_grab_focus(self.passwordRow)
            case let failure?:
                self.showError(failure.description)
            }
        }
    }

    private func copyKey() {
        let key = String(cString: gtk_label_get_text(hark_label(newKeyLabel)))
        guard !key.isEmpty else { return }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(copyButton), key)
    }

    private func setBusy(_ busy: Bool) {
        isBusy = busy
        gtk_widget_set_visible(spinner, busy ? 1 : 0)
        if busy { gtk_spinner_start(OpaquePointer(spinner)) } else { gtk_spinner_stop(OpaquePointer(spinner)) }
        show()
    }

    private func showError(_ text: String?) {
        SentenceLabel.set(errorLabel, text ?? "")
        gtk_widget_set_visible(errorLabel, text == nil ? 0 : 1)
    }

    /// The status line, and the form that fits it.
    private func show() {
        guard lifetime.isAlive else { return }
        switch status {
        case nil:
            SentenceLabel.set(statusLabel, isBusy ? tr("Checking whether this device is verified…") : "")
        case let status? where status.deviceCrossSigned:
            SentenceLabel.set(statusLabel, tr("This device is verified."))
        case let status?:
            SentenceLabel.set(statusLabel, tr("This device is not verified."))
            SentenceLabel.set(whyLabel, status.hasIdentity ? Self.why
                : tr("Other people’s apps share keys only with devices you have verified. "
                     + "This account has no recovery key yet: create one to verify this device, and your others with it."))
        }
        gtk_widget_set_visible(statusLabel, status != nil || isBusy ? 1 : 0)
        let unverified = status.map { !$0.deviceCrossSigned } ?? false
        gtk_widget_set_visible(form, unverified ? 1 : 0)
        let hasIdentity = status?.hasIdentity ?? true
        gtk_widget_set_visible(keyRow, hasIdentity ? 1 : 0)
        gtk_widget_set_visible(verifyButton, hasIdentity ? 1 : 0)
        gtk_widget_set_visible(createButton, hasIdentity ? 0 : 1)
        if hasIdentity { gtk_widget_set_visible(passwordRow, 0) }
        updateButtons()
    }

    private func updateButtons() {
        gtk_widget_set_sensitive(verifyButton, !isBusy && !text(keyRow).trimmingCharacters(in: .whitespaces).isEmpty ? 1 : 0)
        gtk_widget_set_sensitive(createButton, isBusy ? 0 : 1)
        for row in [keyRow, passwordRow] { gtk_editable_set_editable(OpaquePointer(row), isBusy ? 0 : 1) }
    }
}
