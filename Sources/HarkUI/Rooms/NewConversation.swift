import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Localization
import Subscriptions

/// New Conversation…: the window's action `win.new-conversation` (Ctrl+N,
/// the main menu, the "+" in the room sidebar's header), there while signed
/// in, opening NewConversationDialog; the chat it finds or makes goes to `open`.
@MainActor
final class NewConversation {
    static let actionName = "new-conversation"
    private var action: OpaquePointer?
    private let parent: UnsafeMutablePointer<GtkWindow>
    private let account: AccountModel
    /// The dialog while it is open.
    private(set) var dialog: NewConversationDialog?
    /// Opens the conversation's room in the window.
    var open: @MainActor (String) -> Void = { _ in }
    private var subscription: Subscription?

    init(window: UnsafeMutablePointer<GtkWindow>, account: AccountModel, sidebarHeader: UnsafeMutablePointer<GtkWidget>,
         application: UnsafeMutablePointer<GtkApplication>) {
        parent = window
        self.account = account
        let button = gtk_button_new_from_icon_name("list-add-symbolic")!
        gtk_actionable_set_action_name(OpaquePointer(button), "win." + Self.actionName)
        gtk_widget_set_tooltip_text(button, tr("New Conversation (Ctrl+N)"))
        hark_accessible_set_label(UnsafeMutableRawPointer(button), tr("New Conversation"))
        adw_header_bar_pack_start(OpaquePointer(sidebarHeader), button)
        action = Actions.add(to: UnsafeMutableRawPointer(window), Self.actionName) { [weak self] in self?.openDialog() }
        Actions.setAccels(application, "win." + Self.actionName, ["<Control>n"])
        subscription = account.stateChanges.subscribe { [weak self] _ in self?.accountChanged() }
        accountChanged()
    }

    /// The main menu's item, shown only while the action can be used.
    static func addMenuItem(to menu: OpaquePointer) {
        let item = g_menu_item_new(tr("_New Conversation…"), "win." + actionName)!
        g_menu_item_set_attribute_value(item, "hidden-when", g_variant_new_string("action-disabled"))
        g_menu_append_item(menu, item)
        g_object_unref(UnsafeMutableRawPointer(item))
    }

    private func accountChanged() {
        if let action { g_simple_action_set_enabled(action, account.isSignedIn ? 1 : 0) }
        if !account.isSignedIn { dialog?.close() }
    }

    func openDialog() {
        if let dialog, dialog.isOpen {
            dialog.present()
            return
        }
        guard account.isSignedIn, let session = account.session else { return }
        let dialog = NewConversationDialog(over: parent, session: session) { [weak self] in self?.open($0) }
        self.dialog = dialog
        Signal.connect(UnsafeMutableRawPointer(dialog.window), "destroy") { [weak self, weak dialog] in
            if let self, self.dialog === dialog { self.dialog = nil }
        }
        dialog.present()
    }
}
