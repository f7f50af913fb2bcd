import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
@testable import HarkUI
import XCTest

@MainActor private var applicationsMade = 0

/// A registered, non-unique application of our own: no D-Bus name clash with
/// a Hark the user may be running, nor with the other tests' applications.
@MainActor
private func makeApplication() throws -> HarkApplication {
    applicationsMade += 1
    let app = HarkApplication(applicationID: "io.github.hark.Hark.Tests\(applicationsMade)",
                              flags: G_APPLICATION_NON_UNIQUE)
    _ = try withGError { g_application_register(UnsafeMutableRawPointer(app.gtkApplication).assumingMemoryBound(to: GApplication.self), nil, $0) }
    return app
}

@MainActor
private func windows(of app: HarkApplication) -> [UnsafeMutablePointer<GtkWindow>] {
    var result: [UnsafeMutablePointer<GtkWindow>] = []
    var node = gtk_application_get_windows(app.gtkApplication)
    while let current = node {
        result.append(current.pointee.data.assumingMemoryBound(to: GtkWindow.self))
        node = current.pointee.next
    }
    return result
}

final class MainWindowTests: XCTestCase {
    func testMainWindowHasTitleHeaderBarAndEmptyState() throws {
        try onMainActor {
            try withGtk {
                let app = try makeApplication()
                let window = MainWindow(application: app.gtkApplication, store: nil)
                defer { gtk_window_destroy(window.window) }
                XCTAssertEqual(String(cString: gtk_window_get_title(window.window)), "Hark")

                let widgets = Widget.descendants(of: Widget.widget(window.window))
                XCTAssertTrue(widgets.contains { Widget.typeName($0) == "AdwHeaderBar" })
                let titles = widgets.filter { Widget.typeName($0) == "AdwStatusPage" }
                    .compactMap { adw_status_page_get_title(OpaquePointer($0)).map { String(cString: $0) } }
                XCTAssertTrue(titles.contains("No messages yet"), "\(titles)")
                XCTAssertEqual(window.visiblePage, "empty", "and it is the one shown")
            }
        }
    }

    func testStartupInstallsQuitShortcutAndActivatePresentsOneWindow() throws {
        try onMainActor {
            try withGtk {
                let app = try makeApplication()
                XCTAssertEqual(Actions.accels(app.gtkApplication, "app.quit"), ["<Control>q"])

                let gapp = UnsafeMutableRawPointer(app.gtkApplication).assumingMemoryBound(to: GApplication.self)
                g_application_activate(gapp)
                settle()
                XCTAssertEqual(windows(of: app).count, 1)
                let first = try XCTUnwrap(windows(of: app).first)
                XCTAssertEqual(gtk_widget_get_visible(Widget.widget(first)), 1)

                // A second activation (what a second launch sends) presents the same window.
                g_application_activate(gapp)
                settle()
                XCTAssertEqual(windows(of: app).map { $0 }, [first])

                g_action_group_activate_action(OpaquePointer(gapp), "quit", nil)
                settle()
                XCTAssertTrue(windows(of: app).isEmpty, "quit closes the window")
            }
        }
    }

    func testActivatingAfterTheWindowWasDestroyedBuildsANewOne() throws {
        try onMainActor {
            try withGtk {
                let app = try makeApplication()
                let gapp = UnsafeMutableRawPointer(app.gtkApplication).assumingMemoryBound(to: GApplication.self)
                g_application_activate(gapp)
                settle()
                let first = try XCTUnwrap(windows(of: app).first)
                gtk_window_destroy(first)
                settle()
                XCTAssertTrue(windows(of: app).isEmpty)
                g_application_activate(gapp)
                settle()
                XCTAssertEqual(windows(of: app).count, 1, "a fresh window, not the destroyed one")
                windows(of: app).forEach { gtk_window_destroy($0) }
            }
        }
    }

    func testStylesheetIsFoundFromTheCheckout() throws {
        let directory = try XCTUnwrap(AppResources.resourceDirectory)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(directory)/style.css"))
        XCTAssertNotNil(AppResources.uninstalledIconDirectory)
    }
}
