import CGLib
import CGtk
import GLibSupport

/// Hands a file to other apps, by a drag or the clipboard: a GdkFileList,
/// which GTK also offers as `text/uri-list` (and GNOME's copied-files form),
/// so Files, chat apps and mail composers take it as an attachment.
@MainActor
enum FileTransfer {
    /// A new content provider for one local file (a new reference).
    static func contentProvider(forFile path: String) -> UnsafeMutablePointer<GdkContentProvider> {
        var file: OpaquePointer? = g_file_new_for_path(path)
        let list = withUnsafeMutablePointer(to: &file) { gdk_file_list_new_from_array($0, 1) }
        g_object_unref(UnsafeMutableRawPointer(file))
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        g_value_take_boxed(&value, UnsafeRawPointer(list))
        let provider = gdk_content_provider_new_for_value(&value)!
        g_value_unset(&value)
        return provider
    }

    /// Puts the file on the window's clipboard.
    static func copy(_ path: String, from widget: UnsafeMutablePointer<GtkWidget>) {
        let provider = contentProvider(forFile: path)
        gdk_clipboard_set_content(gtk_widget_get_clipboard(widget), provider)
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// Makes `widget` a drag source for the file `file()` gives when a drag
    /// begins (nil: no drag).
    static func dragFile(from widget: UnsafeMutablePointer<GtkWidget>, file: @escaping @MainActor () -> String?) {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_COPY)
        Signal.connectPointReturningPointer(UnsafeMutableRawPointer(source), "prepare") { _, _ in
            file().map { UnsafeMutableRawPointer(contentProvider(forFile: $0)) }
        }
        gtk_widget_add_controller(widget, source)
    }
}
