import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Localization
import Matrix
import Subscriptions

/// "Matrix Account…": signing in (Matrix ID or server, user name, password),
/// or, signed in, who and where with Sign Out, and this device's encryption:
/// Set Up Encryption, or whether it is verified and the recovery key that
/// verifies it (shown right after signing in when it is not). The work is asynchronous on
/// GLib's loop: a spinner turns while the server answers, the window never
/// freezes, and what went wrong is said in the dialog in a sentence.
@MainActor
final class AccountDialog {
    let window: UnsafeMutablePointer<GtkWindow>
    private let account: AccountModel
    private let stack: UnsafeMutablePointer<GtkWidget>
    let serverRow: UnsafeMutablePointer<GtkWidget>
    let userRow: UnsafeMutablePointer<GtkWidget>
    let passwordRow: UnsafeMutablePointer<GtkWidget>
    let signInButton: UnsafeMutablePointer<GtkWidget>
    let signOutButton: UnsafeMutablePointer<GtkWidget>
    let spinner: UnsafeMutablePointer<GtkWidget>
    private let signInLabel: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    /// "Details" under the sentence: the server's code, what did not decode.
    private let errorDetails: UnsafeMutablePointer<GtkWidget>
    private let errorDetailsLabel: UnsafeMutablePointer<GtkWidget>
    private let noticeLabel: UnsafeMutablePointer<GtkWidget>
    private let accountLabel: UnsafeMutablePointer<GtkWidget>
    private let accountError: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let encryptionSentence: UnsafeMutablePointer<GtkWidget>
    let encryptionSetup: EncryptionSetupView
    let recovery: RecoveryKeyView
    /// Whether the recovery part was shown (it asks the server each time it appears).
    private var showsRecovery = false
    private var observation: Subscription?
    /// Signing in or out now.
    private(set) var isBusy = false
    /// The sentence shown for the last failure, nil when none.
    private(set) var shownError: String?

    init(over parent: UnsafeMutablePointer<GtkWindow>?, account: AccountModel) {
        self.account = account
        stack = gtk_stack_new()!
        gtk_stack_set_vhomogeneous(OpaquePointer(stack), 0)
        window = DialogWindow.make(title: tr("Matrix Account"), over: parent, width: 420, content: stack)
        lifetime = WidgetLifetime(of: Widget.widget(window))

        // Signing in.
        let form = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        noticeLabel = Self.sentenceLabel("")
        gtk_widget_add_css_class(noticeLabel, "warning")
        gtk_box_append(hark_box(form), noticeLabel)
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_description(
            UnsafeMutableRawPointer(group).assumingMemoryBound(to: AdwPreferencesGroup.self),
            tr("Sign in to send voice messages into Matrix rooms and hear the answers here."))
        serverRow = adw_entry_row_new()!
        userRow = adw_entry_row_new()!
        passwordRow = adw_password_entry_row_new()!
        for (row, title) in [(serverRow, tr("Matrix ID or Server")), (userRow, tr("User Name")), (passwordRow, tr("Password"))] {
            adw_preferences_row_set_title(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self), title)
            adw_preferences_group_add(UnsafeMutableRawPointer(group).assumingMemoryBound(to: AdwPreferencesGroup.self), row)
        }
        gtk_widget_set_tooltip_text(serverRow, tr("Your Matrix ID (@you:example.org), or your server (example.org)"))
        adw_entry_row_set_activates_default(UnsafeMutableRawPointer(passwordRow).assumingMemoryBound(to: AdwEntryRow.self), 1)
        gtk_box_append(hark_box(form), group)
        errorLabel = Self.sentenceLabel("")
        gtk_widget_add_css_class(errorLabel, "error")
        gtk_box_append(hark_box(form), errorLabel)
        errorDetailsLabel = SentenceLabel.make("")
        gtk_label_set_selectable(hark_label(errorDetailsLabel), 1)
        gtk_widget_add_css_class(errorDetailsLabel, "dim-label")
        errorDetails = gtk_expander_new_with_mnemonic(tr("_Details"))!
        gtk_expander_set_child(OpaquePointer(errorDetails), errorDetailsLabel)
        gtk_widget_set_visible(errorDetails, 0)
        gtk_box_append(hark_box(form), errorDetails)
        signInButton = gtk_button_new()!
        let buttonBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(buttonBox, GTK_ALIGN_CENTER)
        spinner = gtk_spinner_new()!
        gtk_widget_set_visible(spinner, 0)
        signInLabel = gtk_label_new_with_mnemonic(tr("_Sign In"))!
        gtk_box_append(hark_box(buttonBox), spinner)
        gtk_box_append(hark_box(buttonBox), signInLabel)
        gtk_button_set_child(hark_button(signInButton), buttonBox)
        gtk_widget_add_css_class(signInButton, "suggested-action")
        gtk_widget_add_css_class(signInButton, "pill")
        gtk_widget_set_halign(signInButton, GTK_ALIGN_CENTER)
        hark_accessible_set_label(UnsafeMutableRawPointer(signInButton), tr("Sign In"))
        gtk_box_append(hark_box(form), signInButton)
        gtk_window_set_default_widget(window, signInButton)
        gtk_stack_add_named(OpaquePointer(stack), form, "form")

        // Signed in.
        let signedIn = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        accountLabel = Self.sentenceLabel("")
        gtk_widget_set_visible(accountLabel, 1)
        gtk_box_append(hark_box(signedIn), accountLabel)
        accountError = Self.sentenceLabel("")
        gtk_widget_add_css_class(accountError, "error")
        gtk_box_append(hark_box(signedIn), accountError)
        encryptionSentence = Self.sentenceLabel(WindowConversations.encryptionSetUp)
        gtk_box_append(hark_box(signedIn), encryptionSentence)
        encryptionSetup = EncryptionSetupView(account: account)
        gtk_box_append(hark_box(signedIn), encryptionSetup.widget)
        recovery = RecoveryKeyView(account: account)
        gtk_box_append(hark_box(signedIn), recovery.widget)
        signOutButton = gtk_button_new_with_mnemonic(tr("Sign _Out"))!
        ButtonNames.name(signOutButton)
        gtk_widget_add_css_class(signOutButton, "destructive-action")
        gtk_widget_add_css_class(signOutButton, "pill")
        gtk_widget_set_halign(signOutButton, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(signedIn), signOutButton)
        gtk_stack_add_named(OpaquePointer(stack), signedIn, "account")

        for row in [serverRow, userRow, passwordRow] {
            Signal.connect(UnsafeMutableRawPointer(row), "changed") { [weak self] in self?.updateButton() }
        }
        Signal.connect(UnsafeMutableRawPointer(signInButton), "clicked") { [weak self] in self?.signIn() }
        Signal.connect(UnsafeMutableRawPointer(signOutButton), "clicked") { [weak self] in self?.signOut() }
        if let record = account.store.matrix.matrixAccount() {
            gtk_editable_set_text(OpaquePointer(serverRow), record.homeserver)
            gtk_editable_set_text(OpaquePointer(userRow), record.userID)
        }
        showState()
        observation = account.changes.subscribe { [weak self] change in
            if change == .rooms { self?.showEncryption() }
        }
    }

    private static func sentenceLabel(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = SentenceLabel.make(text)
        gtk_widget_set_visible(label, text.isEmpty ? 0 : 1)
        return label
    }

    /// False once GTK destroyed the dialog (closed): its widgets are gone.
    var isOpen: Bool { lifetime.isAlive }

    func present() {
        gtk_window_present(window)
        // GTK gives the first focusable widget the focus: signed in, that is
        // the destructive Sign Out, which Enter or Space would then press.
        if account.isSignedIn { gtk_window_set_focus(window, nil) }
    }

    func close() {
        gtk_window_close(window)
    }

    /// The page for the account's state: the form, or who is signed in.
    func showState() {
        guard lifetime.isAlive else { return }
        switch account.state {
        case .signedIn(let userID):
            let server = account.store.matrix.matrixAccount()?.homeserver ?? ""
            SentenceLabel.set(accountLabel, tr("Signed in as {user} on {server}.", ["user": userID, "server": server]))
            gtk_stack_set_visible_child_name(OpaquePointer(stack), "account")
            showEncryption()
        case .signedOutByServer:
            setLabel(noticeLabel, tr("Signed out by the server. Sign in again to go on; nothing on this computer was lost."))
            gtk_stack_set_visible_child_name(OpaquePointer(stack), "form")
        case .keyringLocked:
            setLabel(noticeLabel, SecretStoreError.locked.description)
            gtk_stack_set_visible_child_name(OpaquePointer(stack), "form")
        case .signedOut, .restoring:
            setLabel(noticeLabel, nil)
            gtk_stack_set_visible_child_name(OpaquePointer(stack), "form")
        }
        updateButton()
    }

    /// Set Up Encryption while the engine is not set up; after, whether this device is verified.
    private func showEncryption() {
        guard lifetime.isAlive else { return }
        let canEncrypt = account.canEncrypt && account.isSignedIn
        gtk_widget_set_visible(encryptionSentence, canEncrypt ? 0 : 1)
        gtk_widget_set_visible(encryptionSetup.widget, canEncrypt ? 0 : 1)
        gtk_widget_set_visible(recovery.widget, canEncrypt ? 1 : 0)
        if canEncrypt, !showsRecovery { recovery.refresh() }
        showsRecovery = canEncrypt
    }

    /// The form's fields: the server text, the user name (from a Matrix ID
    /// typed in the first field when none is given), the password.
    var fields: (server: String, user: String, password: String) {
        func text(_ row: UnsafeMutablePointer<GtkWidget>) -> String {
            String(cString: gtk_editable_get_text(OpaquePointer(row))).trimmingCharacters(in: .whitespaces)
        }
        let server = text(serverRow)
        var user = text(userRow)
        if user.isEmpty, server.hasPrefix("@") { user = server }
        return (server, user, String(cString: gtk_editable_get_text(OpaquePointer(passwordRow))))
    }

    private func updateButton() {
        let (server, user, password) = fields
        let ready = !isBusy && !server.isEmpty && !user.isEmpty && !password.isEmpty
        gtk_widget_set_sensitive(signInButton, ready ? 1 : 0)
        // Not insensitive: a focused text field made insensitive loses its focus
        // without being told, and GTK warns. Read-only keeps it where it is.
        for row in [serverRow, userRow, passwordRow] { gtk_editable_set_editable(OpaquePointer(row), isBusy ? 0 : 1) }
        gtk_widget_set_sensitive(signOutButton, isBusy ? 0 : 1)
    }

    private func setBusy(_ busy: Bool, label: String) {
        isBusy = busy
        gtk_widget_set_visible(spinner, busy ? 1 : 0)
        if busy { gtk_spinner_start(OpaquePointer(spinner)) } else { gtk_spinner_stop(OpaquePointer(spinner)) }
        gtk_label_set_text_with_mnemonic(hark_label(signInLabel), label)
        updateButton()
    }

    private func setLabel(_ label: UnsafeMutablePointer<GtkWidget>, _ text: String?) {
        SentenceLabel.set(label, text ?? "")
        gtk_widget_set_visible(label, text == nil ? 0 : 1)
    }

    private func showError(_ text: String?, in label: UnsafeMutablePointer<GtkWidget>) {
        shownError = text
        setLabel(label, text)
    }

    private func showDetails(_ details: String?) {
        SentenceLabel.set(errorDetailsLabel, details ?? "")
        gtk_expander_set_expanded(OpaquePointer(errorDetails), 0)
        gtk_widget_set_visible(errorDetails, details == nil ? 0 : 1)
    }

    /// Signs in with the form's fields; the dialog closes once signed in.
    func signIn() {
        let (server, user, password) = fields
        guard !isBusy, !server.isEmpty, !user.isEmpty, !password.isEmpty else { return }
        showError(nil, in: errorLabel)
        showDetails(nil)
        setBusy(true, label: tr("Signing In…"))
        Task { [weak self, account] in
            let problem = await account.signIn(server: server, user: user, password: password)
            guard let self, self.lifetime.isAlive else { return }
            self.setBusy(false, label: tr("_Sign In"))
            if let problem {
                self.showError(problem.description, in: self.errorLabel)
                self.showDetails(problem.details)
            } else {
                gtk_editable_set_text(OpaquePointer(self.passwordRow), "")
                await self.closeUnlessUnverified()
            }
        }
    }

    /// Signed in: the dialog closes, unless the encryption is there and this
    /// device is not verified yet; then it stays, asking for the recovery key.
    private func closeUnlessUnverified() async {
        guard account.encryptionSetup.isInstalled, let session = account.session else { return close() }
        setBusy(true, label: tr("Signing In…"))
        await session.setUpEncryptionNow()
        let status = try? await account.crossSigning?.status()
        guard lifetime.isAlive else { return }
        setBusy(false, label: tr("_Sign In"))
        if status?.deviceCrossSigned == false {
            showState()
            gtk_widget_grab_focus(recovery.keyRow)
        } else {
            close()
        }
    }

    /// Signs out; the form shows again.
    func signOut() {
        guard !isBusy else { return }
        showError(nil, in: accountError)
        isBusy = true
        updateButton()
        Task { [weak self, account] in
            let problem = await account.signOut()
            guard let self, self.lifetime.isAlive else { return }
            self.isBusy = false
            self.showError(problem, in: self.accountError)
            self.showState()
        }
    }
}
