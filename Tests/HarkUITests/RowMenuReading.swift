import CGLib
import CGtk
import GLibSupport
import GtkSupport
@testable import HarkUI
import XCTest

/// A menu as the user meets it: opened, its items read by their words, closed again.
enum MenuReading {
    /// The items `menuButton`'s menu shows when opened (visible ones: greyed
    /// or not, or only those that can be chosen).
    @MainActor
    static func items(_ menuButton: UnsafeMutablePointer<GtkWidget>, choosable: Bool = false) throws -> [String] {
        try items(menuButton) { !choosable || gtk_widget_is_sensitive($0) != 0 }
    }

    /// The items of `row`'s menu shown ticked, as check boxes.
    @MainActor
    static func ticked(_ row: MessageRow) throws -> [String] {
        try items(row.menuButton) { button in
            hark_object_get_bool(UnsafeMutableRawPointer(button), "active") != 0
                && Widget.descendants(of: button).contains { gtk_widget_get_css_name($0).map { String(cString: $0) } == "check" }
        }
    }

    @MainActor
    private static func items(_ menuButton: UnsafeMutablePointer<GtkWidget>,
                              where shown: (UnsafeMutablePointer<GtkWidget>) -> Bool) throws -> [String] {
        let isOpen = {
            gtk_menu_button_get_popover(OpaquePointer(menuButton)).map { gtk_widget_get_visible(Widget.widget($0)) != 0 } ?? false
        }
        gtk_menu_button_popup(OpaquePointer(menuButton))
        XCTAssertTrue(MainLoop.iterate(until: isOpen, timeout: 3), "the menu opens")
        settle(seconds: 0.1)
        let popover = try XCTUnwrap(gtk_menu_button_get_popover(OpaquePointer(menuButton)))
        let items = Widget.descendants(of: Widget.widget(popover))
            .filter { Widget.typeName($0) == "GtkModelButton" && gtk_widget_get_visible($0) != 0 }
            .filter(shown)
            .compactMap { button -> String? in
                guard let text = hark_object_get_string(UnsafeMutableRawPointer(button), "text") else { return nil }
                defer { g_free(text) }
                return String(cString: text)
            }
        gtk_menu_button_popdown(OpaquePointer(menuButton))
        XCTAssertTrue(MainLoop.iterate(until: { !isOpen() }, timeout: 3))
        return items
    }

    /// The items `row`'s menu shows when opened.
    @MainActor
    static func items(_ row: MessageRow, choosable: Bool = false) throws -> [String] {
        try items(row.menuButton, choosable: choosable)
    }
}
