import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HelperProcesses
import Localization
import Subscriptions
import Transcription

/// "Transcribe Messages…": what local transcription is (a download of about
/// 200 MB, once; everything on this computer), a switch to turn it on or off,
/// and its language (English, or the multilingual model: detected, or one
/// language). Turning it on installs in the background with its progress
/// shown; a failure is said in a sentence with Try Again, which takes the
/// keyboard focus. Closing the dialog does not stop an install: the service
/// (the window's) owns it, and the dialog only shows it.
@MainActor
final class TranscriptionDialog {
    let window: UnsafeMutablePointer<GtkWindow>
    let onSwitch: UnsafeMutablePointer<GtkWidget>
    let languageRow: UnsafeMutablePointer<GtkWidget>
    let progress = InstallProgressView(name: tr("Setting up transcription"))
    let failureLabel: UnsafeMutablePointer<GtkWidget>
    let tryAgainButton: UnsafeMutablePointer<GtkWidget>
    private let switchRow: UnsafeMutablePointer<GtkWidget>
    private let failureBox: UnsafeMutablePointer<GtkWidget>
    private let service: TranscriptionService
    private let lifetime: WidgetLifetime
    /// Set while the widgets are being made to show the service's state: their
    /// signals are not the user's.
    private var updating = false
    private var shownSetup: TranscriptionService.Setup?
    /// The service's setup, shown as it changes while the dialog is kept.
    private var setupObservation: Subscription?

    static var introduction: String {
        tr("Hark can write down what is said in each new message, so that you can read it "
           + "instead of listening, and find it by its words. Turning this on downloads about 200 MB, once "
           + "(about 600 MB on disk). Everything then runs on this computer only: no recording leaves it.")
    }

    init(over parent: UnsafeMutablePointer<GtkWindow>?, service: TranscriptionService) {
        self.service = service
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18)!
        window = DialogWindow.make(title: tr("Transcribe Messages"), over: parent, width: 460, content: content)
        lifetime = WidgetLifetime(of: Widget.widget(window))

        gtk_box_append(hark_box(content), SentenceLabel.make(Self.introduction))

        let group = adw_preferences_group_new()!
        let preferences = UnsafeMutableRawPointer(group).assumingMemoryBound(to: AdwPreferencesGroup.self)
        switchRow = adw_action_row_new()!
        adw_preferences_row_set_title(UnsafeMutableRawPointer(switchRow).assumingMemoryBound(to: AdwPreferencesRow.self),
                                      tr("_Transcribe New Messages"))
        adw_preferences_row_set_use_underline(UnsafeMutableRawPointer(switchRow).assumingMemoryBound(to: AdwPreferencesRow.self), 1)
        onSwitch = gtk_switch_new()!
        gtk_widget_set_valign(onSwitch, GTK_ALIGN_CENTER)
        hark_accessible_set_label(UnsafeMutableRawPointer(onSwitch), tr("Transcribe New Messages"))
        let actionRow = UnsafeMutableRawPointer(switchRow).assumingMemoryBound(to: AdwActionRow.self)
        adw_action_row_add_suffix(actionRow, onSwitch)
        adw_action_row_set_activatable_widget(actionRow, onSwitch)
        adw_preferences_group_add(preferences, switchRow)

        languageRow = adw_combo_row_new()!
        adw_preferences_row_set_title(UnsafeMutableRawPointer(languageRow).assumingMemoryBound(to: AdwPreferencesRow.self),
                                      tr("_Language"))
        adw_preferences_row_set_use_underline(UnsafeMutableRawPointer(languageRow).assumingMemoryBound(to: AdwPreferencesRow.self), 1)
        adw_action_row_set_subtitle(UnsafeMutableRawPointer(languageRow).assumingMemoryBound(to: AdwActionRow.self),
                                    tr("Other languages than English take a larger model: about 145 MB more."))
        let names = gtk_string_list_new(nil)!
        let locale = Localization.messagesLocale
        for language in TranscriptionLanguage.all { gtk_string_list_append(names, language.name(in: locale)) }
        adw_combo_row_set_model(UnsafeMutableRawPointer(languageRow).assumingMemoryBound(to: AdwComboRow.self), names)
        g_object_unref(UnsafeMutableRawPointer(names))
        adw_preferences_group_add(preferences, languageRow)
        gtk_box_append(hark_box(content), group)

        // Installing.
        gtk_box_append(hark_box(content), progress.widget)

        // Failed.
        failureBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        failureLabel = SentenceLabel.make("")
        gtk_widget_set_visible(failureLabel, 1)
        gtk_widget_add_css_class(failureLabel, "error")
        tryAgainButton = gtk_button_new_with_mnemonic(tr("Try _Again"))!
        ButtonNames.name(tryAgainButton)
        gtk_widget_add_css_class(tryAgainButton, "suggested-action")
        gtk_widget_add_css_class(tryAgainButton, "pill")
        gtk_widget_set_halign(tryAgainButton, GTK_ALIGN_CENTER)
        gtk_box_append(hark_box(failureBox), failureLabel)
        gtk_box_append(hark_box(failureBox), tryAgainButton)
        gtk_widget_set_visible(failureBox, 0)
        gtk_box_append(hark_box(content), failureBox)

        Signal.connectPointer(UnsafeMutableRawPointer(onSwitch), "notify::active") { [weak self] _ in
            guard let self, !self.updating else { return }
            if gtk_switch_get_active(OpaquePointer(self.onSwitch)) != 0 {
                self.service.turnOn(language: self.selectedLanguage)
            } else {
                self.service.turnOff()
            }
        }
        Signal.connectPointer(UnsafeMutableRawPointer(languageRow), "notify::selected") { [weak self] _ in
            guard let self, !self.updating else { return }
            self.service.choose(self.selectedLanguage)
        }
        Signal.connect(UnsafeMutableRawPointer(tryAgainButton), "clicked") { [weak self] in
            guard let self else { return }
            self.service.turnOn(language: self.selectedLanguage)
        }
        showState()
        setupObservation = service.setupChanges.subscribe { [weak self] in self?.showState() }
    }

    /// The language row's choice.
    var selectedLanguage: TranscriptionLanguage {
        let index = Int(adw_combo_row_get_selected(UnsafeMutableRawPointer(languageRow).assumingMemoryBound(to: AdwComboRow.self)))
        return TranscriptionLanguage.all.indices.contains(index) ? TranscriptionLanguage.all[index] : .english
    }

    /// False once GTK destroyed the dialog (closed).
    var isOpen: Bool { lifetime.isAlive }

    func present() {
        gtk_window_present(window)
    }

    func close() {
        gtk_window_close(window)
    }

    /// Makes the widgets show the service's state.
    func showState() {
        guard lifetime.isAlive else { return }
        updating = true
        defer { updating = false }
        gtk_switch_set_active(OpaquePointer(onSwitch), service.isWanted ? 1 : 0)
        let index = TranscriptionLanguage.all.firstIndex(of: service.language) ?? 0
        adw_combo_row_set_selected(UnsafeMutableRawPointer(languageRow).assumingMemoryBound(to: AdwComboRow.self), UInt32(index))
        let setup = service.setup
        let subtitle: String
        switch setup {
        case .installing: subtitle = tr("Setting up: new messages are transcribed once this is done.")
        case .failed: subtitle = tr("Off: the engine could not be set up.")
        case .idle: subtitle = service.isOn ? tr("On: new messages are transcribed on this computer.")
                                            : tr("Off: nothing is downloaded or run.")
        }
        adw_action_row_set_subtitle(UnsafeMutableRawPointer(switchRow).assumingMemoryBound(to: AdwActionRow.self), subtitle)
        switch setup {
        case .installing(let installing):
            progress.show(installing)
        case .failed(let failure):
            SentenceLabel.set(failureLabel, failure.sentence)
            hark_accessible_set_description(UnsafeMutableRawPointer(tryAgainButton), failure.sentence)
        case .idle:
            break
        }
        gtk_widget_set_visible(progress.widget, { if case .installing = setup { return 1 } else { return 0 } }())
        let failed: Bool = { if case .failed = setup { return true } else { return false } }()
        gtk_widget_set_visible(failureBox, failed ? 1 : 0)
        // The sentence and the way out of it get the keyboard as the failure comes.
        let wasFailed: Bool = { if case .failed = shownSetup { return true } else { return false } }()
        if failed, !wasFailed { gtk_widget_grab_focus(tryAgainButton) }
        shownSetup = setup
    }

    /// "45 %" of 0.456, in the locale's digits.
    nonisolated static func percentText(_ fraction: Double,
                                        locale: Locale = LocaleNumbers.environmentLocale(category: "LC_NUMERIC")) -> String {
        // TRANSLATORS: a share of the install done, "45 %"; Persian writes "٪۴۵".
        tr("{percent} %", ["percent": LocaleNumbers.integer(Int((fraction * 100).rounded(.down)), locale: locale)])
    }

}
