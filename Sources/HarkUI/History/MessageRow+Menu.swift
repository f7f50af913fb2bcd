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

    /// The row's menu as it opens (see RowMenu): its items carry the
    /// message's id to the history's actions. An item that cannot be chosen
    /// names its action with no id: GTK shows it greyed (an action that takes
    /// an id cannot be activated without one). Show Whole Transcript is a
    /// check item, which GTK makes only of an action without a parameter:
    /// the row's own `row.show-transcript`, ticked while it is open.
    func makeMenu() -> UnsafeMutablePointer<GMenuModel> {
        if let toggle = transcriptToggle {
            let open = message.map { transcriptContext.expanded.contains($0.id) } ?? false
            g_simple_action_set_state(toggle, g_variant_new_boolean(open ? 1 : 0))
        }
        let shown = RowMenu(message: message, canSend: canSend, sendState: sendState,
                            transcribes: message != nil && store.transcribesNewMessages)
        let menu = g_menu_new()!
        for items in shown.sections {
            let section = g_menu_new()!
            for item in items {
                let entry = g_menu_item_new(item.label, nil)!
                if item.action == .showTranscript {
                    g_menu_item_set_detailed_action(entry, Self.transcriptToggleAction)
                } else if item.enabled, let id = message?.id {
                    g_menu_item_set_action_and_target_value(entry, item.action.detailed, g_variant_new_string(id))
                } else {
                    g_menu_item_set_attribute_value(entry, "action", g_variant_new_string(item.action.detailed))
                }
                if let accel = item.accel { g_menu_item_set_attribute_value(entry, "accel", g_variant_new_string(accel)) }
                g_menu_append_item(section, entry)
                g_object_unref(UnsafeMutableRawPointer(entry))
            }
            g_menu_append_section(menu, nil, UnsafeMutableRawPointer(section).assumingMemoryBound(to: GMenuModel.self))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        g_menu_append_section(menu, tr("Playback Speed"), Self.speeds)
        return UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self)
    }

    /// A menu with nothing in it, for a row already gone.
    static func noMenu() -> UnsafeMutablePointer<GMenuModel> {
        UnsafeMutableRawPointer(g_menu_new()!).assumingMemoryBound(to: GMenuModel.self)
    }

    /// The speeds, one for every message: the same section in every row's menu.
    static let speeds: UnsafeMutablePointer<GMenuModel> = {
        let speeds = g_menu_new()!
        for rate in PlaybackController.rates {
            let entry = g_menu_item_new(rateText(rate), nil)!
            g_menu_item_set_action_and_target_value(entry, "win.playback-speed", g_variant_new_string(MainWindow.speedTarget(rate)))
            g_menu_append_item(speeds, entry)
            g_object_unref(UnsafeMutableRawPointer(entry))
        }
        g_menu_append(speeds, tr("_Skip Silence"), "win." + MainWindow.skipSilenceAction)
        return UnsafeMutableRawPointer(speeds).assumingMemoryBound(to: GMenuModel.self)  // kept for the app's life
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

    /// "1.5×", in the locale's digits and decimal separator ("1,5×" in German).
    nonisolated static func rateText(_ rate: Double, locale: Locale = LocaleNumbers.environmentLocale(category: "LC_NUMERIC")) -> String {
        // TRANSLATORS: a playback speed, "1.5×" (one and a half times as fast).
        tr("{rate}×", ["rate": LocaleNumbers.decimal(rate, locale: locale)])
    }
}
