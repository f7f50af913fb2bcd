import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Levels
import Localization
import MessageStore

/// A row's menu: its items, its actions, and the keyboard going into it and back.
extension MessageRow {
    /// Opens the row's menu (the Menu key, Shift+F10), for the keyboard.
    func openMenu() {
        gtk_menu_button_popup(OpaquePointer(menuButton))
    }

    /// The menu takes the keyboard when it opens (by a key or a click), and
    /// gives it back to the row when it closes. The row's box cannot take
    /// the focus (so a click focuses the list item), which would keep it out
    /// of the popover too, a descendant: it can while the menu is open.
    func menuCreated(_ popover: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(UnsafeMutableRawPointer(popover), "map") { [weak self] in
            guard let self else { return }
            self.updateTranscriptActions()  // transcription may have been turned on or off since
            gtk_widget_set_can_focus(self.widget, 1)
            // At once, before any key reaches the menu (GTK's own show found
            // nothing it could focus), and on the first item each time: a
            // menu remembers its last.
            let first = Widget.descendants(of: popover).first {
                Widget.typeName($0) == "GtkModelButton" && gtk_widget_is_visible($0) != 0 && gtk_widget_is_sensitive($0) != 0
            }
            if let first { gtk_widget_grab_focus(first) } else { _ = gtk_widget_child_focus(popover, GTK_DIR_TAB_FORWARD) }
        }
        Signal.connect(UnsafeMutableRawPointer(popover), "closed") { [weak self] in self?.menuClosed() }
    }

    /// The focus it had goes back to the row, unless the choice moved it
    /// on (to a dialog, or another row after a delete).
    func menuClosed() {
        if message != nil, let item = listItemWidget, let root = gtk_widget_get_root(item) {
            let focus = gtk_root_get_focus(root)
            if focus == nil || focus.map({ gtk_widget_is_ancestor($0, widget) != 0 }) == true { gtk_widget_grab_focus(item) }
        }
        gtk_widget_set_can_focus(widget, 0)
    }

    var menuIsOpen: Bool {
        gtk_menu_button_get_popover(OpaquePointer(menuButton)).map { gtk_widget_get_visible(Widget.widget($0)) != 0 } ?? false
    }

    /// One menu for every row: its "row.…" actions resolve to the row that opens it.
    static let menu: UnsafeMutablePointer<GMenuModel> = {
        let menu = g_menu_new()!
        let item = { (label: String, action: String, accel: String) in
            let entry = g_menu_item_new(label, action)!
            if !accel.isEmpty { g_menu_item_set_attribute_value(entry, "accel", g_variant_new_string(accel)) }
            g_menu_append_item(menu, entry)
            g_object_unref(UnsafeMutableRawPointer(entry))
        }
        item(tr("_Rename…"), "row.rename", "F2")
        item(tr("_Copy"), "row.copy", "<Control>c")
        item(tr("_Export…"), "row.export", "<Control>e")
        item(tr("_Delete"), "row.delete", "Delete")
        let conversation = g_menu_new()!
        for (label, action) in [(tr("_Send to…"), "row.send-to"), (tr("Delete for _Everyone"), "row.delete-for-everyone")] {
            let entry = g_menu_item_new(label, action)!
            g_menu_item_set_attribute_value(entry, "hidden-when", g_variant_new_string("action-disabled"))
            g_menu_append_item(conversation, entry)
            g_object_unref(UnsafeMutableRawPointer(entry))
        }
        g_menu_append_section(menu, nil, UnsafeMutableRawPointer(conversation).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(conversation))
        let transcript = transcriptMenuSection()
        g_menu_append_section(menu, nil, transcript)
        g_object_unref(UnsafeMutableRawPointer(transcript))
        let speeds = g_menu_new()!
        for rate in PlaybackController.rates {
            let entry = g_menu_item_new(rateText(rate), nil)!
            g_menu_item_set_action_and_target_value(entry, "win.playback-speed", g_variant_new_string(MainWindow.speedTarget(rate)))
            g_menu_append_item(speeds, entry)
            g_object_unref(UnsafeMutableRawPointer(entry))
        }
        g_menu_append_section(menu, tr("Playback Speed"), UnsafeMutableRawPointer(speeds).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(speeds))
        return UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)  // kept for the app's life
    }()

    static func makeMenuButton() -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), "view-more-symbolic")
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(button, tr("Message Menu"))
        hark_accessible_set_label(UnsafeMutableRawPointer(button), tr("Message Menu"))
        return button
    }

    func makeActions() -> OpaquePointer {
        let group = g_simple_action_group_new()!
        let map = UnsafeMutableRawPointer(group)
        // The menu's popover must be gone before the row changes (Delete
        // removes it from the list): GTK would otherwise look up a pointer
        // position on the popover's destroyed surface. So the work waits.
        @discardableResult
        func add(_ name: String, _ work: @escaping @MainActor (MessageRow, Message) -> Void) -> OpaquePointer {
            Actions.add(to: map, name) { [weak self] in
                guard let self, let message = self.message else { return }
                gtk_menu_button_popdown(OpaquePointer(self.menuButton))
                self.lifetime.idle { [weak self] in
                    if let self, self.message?.id == message.id { work(self, message) }
                    return false
                }
            }
        }
        add("rename") { row, message in row.onRename(message) }
        exportAction = add("export") { row, message in row.onExport(message) }
        copyAction = add("copy") { row, message in row.onCopy(message) }
        add("delete") { row, message in row.onDelete(message) }
        sendToAction = add("send-to") { row, message in row.onSendTo(message) }
        deleteForEveryoneAction = add("delete-for-everyone") { row, message in row.onDeleteForEveryone(message) }
        addTranscriptActions(to: map, add)
        return OpaquePointer(group)
    }

    /// "1.5×", in the locale's digits and decimal separator ("1,5×" in German).
    nonisolated static func rateText(_ rate: Double, locale: Locale = LocaleNumbers.environmentLocale(category: "LC_NUMERIC")) -> String {
        // TRANSLATORS: a playback speed, "1.5×" (one and a half times as fast).
        tr("{rate}×", ["rate": LocaleNumbers.decimal(rate, locale: locale)])
    }
}
