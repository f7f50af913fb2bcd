import CGLib
import CGStreamer
import GLibSupport

// The C entry point of the bus watch, a global constant in this non-isolated
// file as GLibSupport's are (see its Trampolines.swift): it borrows its
// HandlerBox and enters the main actor with `assumeIsolated`, which traps off
// the main thread.

/// gboolean (*)(GstBus*, GstMessage*, gpointer).
let busTrampoline: @convention(c) (UnsafeMutablePointer<GstBus>?, UnsafeMutablePointer<GstMessage>?, gpointer?) -> gboolean = { _, message, data in
    let box = HandlerBox<BusHandler>.borrow(data)
    guard let borrowed = message else { return 1 }
    nonisolated(unsafe) let message = borrowed  // borrowed for the call, on this thread
    return MainActor.assumeIsolated { box.handler(BusMessage(pointer: message)) } ? 1 : 0
}
