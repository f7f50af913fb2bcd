import CAdwaita
import CGtk
import Foundation
import GLibSupport
import Localization

/// Loads Resources/style.css for the whole display, and makes the app icon
/// findable when Hark runs from a checkout.
@MainActor
enum Style {
    static func install() {
        guard let display = gdk_display_get_default() else { return }
        if let directory = AppResources.resourceDirectory {
            let provider = gtk_css_provider_new()!
            gtk_css_provider_load_from_path(provider, "\(directory)/style.css")
            gtk_style_context_add_provider_for_display(
                display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            g_object_unref(UnsafeMutableRawPointer(provider))  // the display keeps it
        } else {
            let problem = tr("style.css was not found (is Hark installed completely?); the window looks plain")
            FileHandle.standardError.write(Data("hark: \(problem)\n".utf8))
        }
        if let icons = AppResources.uninstalledIconDirectory {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons)
        }
    }
}
