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

// GtkCustomLayout's functions carry no user data: the widget finds its
// handlers (see CustomLayout).
let customLayoutRequestModeTrampoline: @convention(c) (UnsafeMutablePointer<GtkWidget>?) -> GtkSizeRequestMode = { borrowed in
    nonisolated(unsafe) let widget = borrowed  // borrowed for the call, on this thread
    return MainActor.assumeIsolated { CustomLayout.requestMode(of: widget) }
}

let customLayoutMeasureTrampoline: @convention(c) (UnsafeMutablePointer<GtkWidget>?, GtkOrientation, gint,
                                                    UnsafeMutablePointer<gint>?, UnsafeMutablePointer<gint>?,
                                                    UnsafeMutablePointer<gint>?, UnsafeMutablePointer<gint>?) -> Void = {
    borrowed, orientation, forSize, minimum, natural, minimumBaseline, naturalBaseline in
    nonisolated(unsafe) let widget = borrowed
    let size = MainActor.assumeIsolated { CustomLayout.measure(widget, orientation, forSize) }
    minimum?.pointee = size.minimum
    natural?.pointee = size.natural
    minimumBaseline?.pointee = -1
    naturalBaseline?.pointee = -1
}

let customLayoutAllocateTrampoline: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gint, gint, gint) -> Void = {
    borrowed, width, height, baseline in
    nonisolated(unsafe) let widget = borrowed
    MainActor.assumeIsolated { CustomLayout.allocate(widget, width, height, baseline) }
}
