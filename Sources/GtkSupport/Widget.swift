import CGtk
import GLibSupport

/// Small conversions between the pointer types GTK's C API hands out.
/// Final GTK/libadwaita types (AdwHeaderBar, AdwStatusPage…) import as
/// OpaquePointer; derivable ones (GtkWidget, GtkWindow…) as typed pointers.
public enum Widget {
    @inlinable
    public static func widget(_ pointer: OpaquePointer) -> UnsafeMutablePointer<GtkWidget> {
        UnsafeMutablePointer<GtkWidget>(pointer)
    }

    @inlinable
    public static func widget<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GtkWidget> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GtkWidget.self)
    }

    /// The widget and its descendants, depth first; for tests and lookups.
    @MainActor
    public static func descendants(of root: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var result: [UnsafeMutablePointer<GtkWidget>] = [root]
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            result += descendants(of: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return result
    }

    /// The GType name of a widget, e.g. "GtkLabel".
    @MainActor
    public static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
    }
}
