import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport

/// The main window: a header bar over the message history, which for now is
/// its empty state.
@MainActor
final class MainWindow {
    /// Borrowed: the application owns its windows.
    let window: UnsafeMutablePointer<GtkWindow>

    init(application: UnsafeMutablePointer<GtkApplication>) {
        let appWindow = adw_application_window_new(application)!
        window = UnsafeMutableRawPointer(appWindow).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_title(window, AppInfo.name)
        gtk_window_set_default_size(window, 420, 640)
        gtk_widget_set_size_request(appWindow, 360, 360)

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(hark_box(content), Self.makeHeaderBar())
        gtk_box_append(hark_box(content), Self.makeEmptyState())
        adw_application_window_set_content(hark_adw_application_window(appWindow), content)
    }

    func present() {
        gtk_window_present(window)
    }

    func close() {
        gtk_window_close(window)
    }

    private static func makeHeaderBar() -> UnsafeMutablePointer<GtkWidget> {
        let header = adw_header_bar_new()!
        let menu = g_menu_new()!
        g_menu_append(menu, "_About Hark", "app.about")
        g_menu_append(menu, "_Quit", "app.quit")
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(menuButton), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(OpaquePointer(menuButton), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_menu_button_set_primary(OpaquePointer(menuButton), 1)
        gtk_widget_set_tooltip_text(menuButton, "Main Menu")
        g_object_unref(UnsafeMutableRawPointer(menu))
        adw_header_bar_pack_end(OpaquePointer(header), menuButton)
        return header
    }

    private static func makeEmptyState() -> UnsafeMutablePointer<GtkWidget> {
        let status = adw_status_page_new()!
        adw_status_page_set_icon_name(OpaquePointer(status), "audio-input-microphone-symbolic")
        adw_status_page_set_title(OpaquePointer(status), "No messages yet")
        adw_status_page_set_description(
            OpaquePointer(status), "Voice messages you record or import will appear here.")
        gtk_widget_set_vexpand(status, 1)
        gtk_widget_add_css_class(status, "hark-empty-history")
        return status
    }
}
