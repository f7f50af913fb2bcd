import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkTestSupport
@testable import HarkUI
import Identity
import MessageStore
import XCTest

/// What the window keeps between runs and how it presents itself: its size,
/// a primary menu without Quit, an About window that names its makers.
final class WindowSettingsTests: XCTestCase {
    func testTheWindowSizeIsRememberedAcrossARestart() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try withGtk {
                let store = try MessageStore(folder: folder)
                let (first, _) = try WindowFixture.makeWindow(store)
                var width: Int32 = 0, height: Int32 = 0
                gtk_window_get_default_size(first.window, &width, &height)
                XCTAssertEqual([width, height], [480, 640], "the standard size at first")
                gtk_window_present(first.window)
                gtk_window_set_default_size(first.window, 720, 530)  // as a user's resize leaves it
                settle()
                first.close()  // closing (Ctrl+Q does the same) keeps the size
                settle()
                XCTAssertEqual(store.setting(WindowSize.settingKey), "720 530")

                let (second, _) = try WindowFixture.makeWindow(store)
                defer { gtk_window_destroy(second.window) }
                gtk_window_get_default_size(second.window, &width, &height)
                XCTAssertEqual([width, height], [720, 530], "opened at the size it was closed at")
            }
        }
    }

    func testStoredSizesAreReadSafely() {
        XCTAssertEqual(WindowSize(setting: nil), .standard)
        XCTAssertEqual(WindowSize(setting: "garbage"), .standard)
        XCTAssertEqual(WindowSize(setting: "100 50"), WindowSize(width: 360, height: 360, maximized: false),
                       "never below the window's minimum")
        XCTAssertEqual(WindowSize(setting: "900 700 maximized"), WindowSize(width: 900, height: 700, maximized: true))
        XCTAssertEqual(WindowSize(setting: WindowSize(width: 800, height: 600, maximized: true).setting),
                       WindowSize(width: 800, height: 600, maximized: true))
    }

    func testThePrimaryMenuHasNoQuitAndAboutNamesTheDevelopersAndWebsite() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try onMainActor {
            try WindowFixture.withWindow(storeIn: folder) { _, window in
                let buttons = Widget.descendants(of: Widget.widget(window.window))
                    .filter { Widget.typeName($0) == "GtkMenuButton" }
                let main = try XCTUnwrap(buttons.first {
                    gtk_widget_get_tooltip_text($0).map { String(cString: $0) } == "Main Menu"
                })
                let model = try XCTUnwrap(gtk_menu_button_get_menu_model(OpaquePointer(main)))
                let labels = Self.labels(in: model)
                XCTAssertTrue(labels.contains("_About Hark"), "\(labels)")
                XCTAssertFalse(labels.contains { $0.contains("Quit") }, "no Quit in the primary menu: \(labels)")

                let about = AboutDialog.present(over: window.window)
                defer { gtk_window_destroy(about) }
                XCTAssertEqual(adw_about_window_get_developer_name(OpaquePointer(about)).map { String(cString: $0) },
                               AppInfo.developer)
                XCTAssertEqual(adw_about_window_get_website(OpaquePointer(about)).map { String(cString: $0) },
                               AppInfo.website)
            }
        }
    }

    /// Every item label of a menu model, sections included.
    @MainActor
    private static func labels(in model: UnsafeMutablePointer<GMenuModel>) -> [String] {
        var found: [String] = []
        for index in 0..<g_menu_model_get_n_items(model) {
            if let label = g_menu_model_get_item_attribute_value(model, index, "label", nil) {
                found.append(String(cString: g_variant_get_string(label, nil)))
                g_variant_unref(label)
            }
            if let section = g_menu_model_get_item_link(model, index, "section") {
                found += labels(in: section)
                g_object_unref(UnsafeMutableRawPointer(section))
            }
        }
        return found
    }
}
