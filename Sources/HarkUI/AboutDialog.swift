import CAdwaita
import CGtk
import GtkSupport
import Identity
import Localization

@MainActor
enum AboutDialog {
    /// Shows the About window over `parent`, and returns it (tests read it).
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWindow>?) -> UnsafeMutablePointer<GtkWindow> {
        let about = adw_about_window_new()!
        let window = UnsafeMutablePointer<GtkWindow>(OpaquePointer(about))
        adw_about_window_set_application_name(OpaquePointer(about), AppInfo.name)
        adw_about_window_set_application_icon(OpaquePointer(about), AppInfo.id)
        adw_about_window_set_version(OpaquePointer(about), AppInfo.version)
        adw_about_window_set_comments(OpaquePointer(about), tr("Record, play and keep voice messages"))
        // TRANSLATORS: your names, one a line, as the About window credits them (English shows none).
        let credits = tr("translator-credits")
        if credits != "translator-credits" { adw_about_window_set_translator_credits(OpaquePointer(about), credits) }
        adw_about_window_set_developer_name(OpaquePointer(about), AppInfo.developer)
        adw_about_window_set_website(OpaquePointer(about), AppInfo.website)
        adw_about_window_set_issue_url(OpaquePointer(about), AppInfo.issues)
        adw_about_window_set_license_type(OpaquePointer(about), GTK_LICENSE_GPL_3_0)
        if let parent {
            gtk_window_set_transient_for(window, parent)
            gtk_window_set_modal(window, 1)
        }
        gtk_window_present(window)
        return window
    }
}
