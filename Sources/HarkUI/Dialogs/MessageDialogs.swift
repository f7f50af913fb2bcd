import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The questions the window asks, as AdwMessageDialogs: each calls back only
/// when the user confirms, and Escape or closing always means "no".
@MainActor
enum MessageDialogs {
    private static func messageDialog(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<AdwMessageDialog> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: AdwMessageDialog.self)
    }

    private static func present(_ dialog: UnsafeMutablePointer<GtkWidget>) {
        ButtonNames.nameAll(in: dialog)
        gtk_window_present(hark_window(dialog))
    }

    /// Asks for a message's new title; `rename` gets it trimmed, never empty.
    static func rename(over parent: UnsafeMutablePointer<GtkWindow>?, current: String,
                       rename: @escaping @MainActor (String) -> Void) {
        let dialog = adw_message_dialog_new(parent, tr("Rename Message"), nil)!
        let entry = gtk_entry_new()!
        gtk_editable_set_text(OpaquePointer(entry), current)
        // TRANSLATORS: the name of the Rename dialog's text field: the message's title.
        hark_accessible_set_label(UnsafeMutableRawPointer(entry), tr("Title"))
        // Enter presses Rename (the default response), which closes the dialog.
        gtk_entry_set_activates_default(UnsafeMutableRawPointer(entry).assumingMemoryBound(to: GtkEntry.self), 1)
        adw_message_dialog_set_extra_child(messageDialog(dialog), entry)
        adw_message_dialog_add_response(messageDialog(dialog), "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(messageDialog(dialog), "rename", tr("_Rename"))
        adw_message_dialog_set_response_appearance(messageDialog(dialog), "rename", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(messageDialog(dialog), "rename")
        adw_message_dialog_set_close_response(messageDialog(dialog), "cancel")
        func newTitle() -> String {
            String(cString: gtk_editable_get_text(OpaquePointer(entry))).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        Signal.connect(UnsafeMutableRawPointer(entry), "changed") {
            adw_message_dialog_set_response_enabled(messageDialog(dialog), "rename", newTitle().isEmpty ? 0 : 1)
        }
        Signal.connectPointer(UnsafeMutableRawPointer(dialog), "response") { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "rename" else { return }
            let title = newTitle()
            if !title.isEmpty { rename(title) }
        }
        present(dialog)
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(OpaquePointer(entry), 0, -1)
    }

    /// Asks before throwing away `seconds` of recording; the dialog (it
    /// closes itself on an answer).
    @discardableResult
    static func confirmDiscard(over parent: UnsafeMutablePointer<GtkWindow>?, seconds: Double,
                               discard: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWindow> {
        confirmDestructive(over: parent, heading: tr("Discard Recording?"),
                           body: tr("The {duration} recorded so far will be lost.", ["duration": DurationText.spoken(seconds)]),
                           keep: ("keep", tr("_Keep Recording")), act: ("discard", tr("_Discard")), then: discard)
    }

    /// Asks before declining `count` invitations at once.
    static func confirmDeclineAll(over parent: UnsafeMutablePointer<GtkWindow>?, count: Int,
                                  decline: @escaping @MainActor () -> Void) {
        confirmDestructive(over: parent, heading: trn("Decline {count} Invitation?", "Decline {count} Invitations?", count),
                           body: tr("You can join these rooms only if someone invites you again."),
                           keep: ("cancel", tr("_Cancel")), act: ("decline", tr("_Decline All")), then: decline)
    }

    /// A question whose `act` response (destructive) runs `then`; `keep` is
    /// the default, and what Escape or closing means.
    @discardableResult
    private static func confirmDestructive(over parent: UnsafeMutablePointer<GtkWindow>?, heading: String, body: String,
                                           keep: (id: String, label: String), act: (id: String, label: String),
                                           then: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWindow> {
        let dialog = adw_message_dialog_new(parent, heading, body)!
        adw_message_dialog_add_response(messageDialog(dialog), keep.id, keep.label)
        adw_message_dialog_add_response(messageDialog(dialog), act.id, act.label)
        adw_message_dialog_set_response_appearance(messageDialog(dialog), act.id, ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(messageDialog(dialog), keep.id)
        adw_message_dialog_set_close_response(messageDialog(dialog), keep.id)
        Signal.connectPointer(UnsafeMutableRawPointer(dialog), "response") { response in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == act.id else { return }
            then()
        }
        present(dialog)
        return hark_window(dialog)
    }

    /// The whole of a message a toast could only begin; returns the dialog.
    @discardableResult
    static func details(over parent: UnsafeMutablePointer<GtkWindow>?, heading: String,
                        text: String) -> UnsafeMutablePointer<GtkWindow> {
        let dialog = adw_message_dialog_new(parent, heading, text)!
        adw_message_dialog_add_response(messageDialog(dialog), "close", tr("_Close"))
        adw_message_dialog_set_default_response(messageDialog(dialog), "close")
        adw_message_dialog_set_close_response(messageDialog(dialog), "close")
        present(dialog)
        return hark_window(dialog)
    }
}
