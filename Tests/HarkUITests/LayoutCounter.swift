import CGtk
import GLibSupport

/// Counts a shown window's layouts through its surface's "compute-size"
/// signal, which GDK emits at each layout of it. A layout is what a steady
/// redraw must not cause: on X11 each one asks the X server for the
/// monitor's work area, and in the history it restyles the list.
@MainActor
final class LayoutCounter {
    private(set) var layouts = 0

    init(_ window: UnsafeMutablePointer<GtkWidget>) {
        guard let surface = gtk_native_get_surface(OpaquePointer(window)) else { return }
        Signal.connectPointer(UnsafeMutableRawPointer(surface), "compute-size") { [weak self] _ in self?.layouts += 1 }
    }
}
