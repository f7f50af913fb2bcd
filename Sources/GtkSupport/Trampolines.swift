import CGtk
import GLibSupport

// C entry points for GTK callbacks; global constants in a non-isolated file,
// for the reasons given in GLibSupport/Trampolines.swift.

let drawTrampoline: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, gint, gint, gpointer?) -> Void = { _, cairo, width, height, data in
    guard let borrowed = cairo else { return }
    let box = HandlerBox<DrawHandler>.borrow(data)
    nonisolated(unsafe) let context = borrowed  // borrowed for the call, on this thread
    MainActor.assumeIsolated { box.handler(context, Int(width), Int(height)) }
}

let tickTrampoline: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, clock, data in
    let box = HandlerBox<TickHandler>.borrow(data)
    let time = clock.map { Double(gdk_frame_clock_get_frame_time($0)) / 1_000_000 } ?? 0
    return MainActor.assumeIsolated { box.handler(time) } ? 1 : 0
}

let menuPopupTrampoline: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    let box = HandlerBox<SignalHandler>.borrow(data)
    MainActor.assumeIsolated { box.handler() }
}
