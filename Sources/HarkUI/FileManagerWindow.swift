import CGLib
import CGtk
import Foundation
import GLibSupport

/// Shows a file in the desktop's file manager, selected: the standard
/// org.freedesktop.FileManager1 D-Bus interface (Files, Dolphin, Thunar,
/// Nemo…), else the folder opened with its default application.
@MainActor
enum FileManagerWindow {
    static func show(_ path: String) {
        let uri = URL(fileURLWithPath: path).absoluteString
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().absoluteString
        // A D-Bus call that finds no file manager may take a moment: not on the main thread.
        let thread = Thread {
            let shown = showItem(uri)
            if !shown {
                MainLoop.post { gtk_show_uri(nil, folder, guint32(GDK_CURRENT_TIME)) }
            }
        }
        thread.name = "hark-show-in-files"
        thread.start()
    }

    /// Whether a file manager on the session bus took the request.
    private nonisolated static func showItem(_ uri: String) -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let stringArray = g_variant_type_new("as")
        defer { g_variant_type_free(stringArray) }
        let builder = g_variant_builder_new(stringArray)
        g_variant_builder_add_value(builder, g_variant_new_string(uri))
        let arguments = g_variant_new_tuple([g_variant_builder_end(builder), g_variant_new_string("")], 2)
        g_variant_builder_unref(builder)
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                                                "org.freedesktop.FileManager1", "ShowItems", arguments, nil,
                                                G_DBUS_CALL_FLAGS_NONE, 3_000, nil, &error)
        if let error { g_error_free(error) }
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }
}
