import CGLib

// The C entry points of every callback GLibSupport registers. They live in
// this non-isolated file as global constants on purpose: a `@convention(c)`
// literal written inside `@MainActor` code is not checked for isolation, and a
// capturing one crashes the 6.3 compiler. Each one borrows its HandlerBox and
// enters the main actor with `assumeIsolated`, which traps off the main thread.

/// GClosureNotify shape of `releaseHandlerBox`.
let releaseClosureHandlerBox: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

// MARK: Signal handler shapes: (instance, args…, user_data).

let voidSignalTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let box = HandlerBox<SignalHandler>.borrow(data)
    MainActor.assumeIsolated { box.handler() }
}

let intPointerSignalTrampoline: @convention(c) (gpointer?, gint, gpointer?, gpointer?) -> Void = { _, value, argument, data in
    let box = HandlerBox<IntPointerSignalHandler>.borrow(data)
    nonisolated(unsafe) let argument = argument
    MainActor.assumeIsolated { box.handler(Int(value), argument) }
}

let pointerSignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    let box = HandlerBox<PointerSignalHandler>.borrow(data)
    // Borrowed for the call, on this (main) thread: nothing is sent anywhere.
    nonisolated(unsafe) let argument = argument
    MainActor.assumeIsolated { box.handler(argument) }
}

let pointerBoolSignalTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, argument, data in
    let box = HandlerBox<PointerBoolSignalHandler>.borrow(data)
    nonisolated(unsafe) let argument = argument  // borrowed for the call, on this thread
    return MainActor.assumeIsolated { box.handler(argument) } ? 1 : 0
}

let boolSignalTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    let box = HandlerBox<BoolSignalHandler>.borrow(data)
    return MainActor.assumeIsolated { box.handler() } ? 1 : 0
}

let pointDoubleSignalTrampoline: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { _, x, y, data in
    let box = HandlerBox<PointSignalHandler>.borrow(data)
    MainActor.assumeIsolated { box.handler(x, y) }
}

let pressSignalTrampoline: @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void = { _, count, x, y, data in
    let box = HandlerBox<PressSignalHandler>.borrow(data)
    MainActor.assumeIsolated { box.handler(Int(count), x, y) }
}

let intSignalTrampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
    let box = HandlerBox<IntSignalHandler>.borrow(data)
    MainActor.assumeIsolated { box.handler(Int(value)) }
}

let sizeSignalTrampoline: @convention(c) (gpointer?, gint, gint, gpointer?) -> Void = { _, width, height, data in
    let box = HandlerBox<SizeSignalHandler>.borrow(data)
    MainActor.assumeIsolated { box.handler(Int(width), Int(height)) }
}

let dropSignalTrampoline: @convention(c) (gpointer?, gpointer?, gdouble, gdouble, gpointer?) -> gboolean = { _, value, x, y, data in
    let box = HandlerBox<DropSignalHandler>.borrow(data)
    nonisolated(unsafe) let value = value  // borrowed for the call, on this thread
    return MainActor.assumeIsolated { box.handler(value, x, y) } ? 1 : 0
}

let pointPointerSignalTrampoline: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> gpointer? = { _, x, y, data in
    let box = HandlerBox<PointPointerSignalHandler>.borrow(data)
    // Carried out as an address: the new reference passes to the caller.
    let address = MainActor.assumeIsolated { box.handler(x, y).map { UInt(bitPattern: $0) } }
    return address.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
}

let keySignalTrampoline: @convention(c) (gpointer?, guint, guint, guint32, gpointer?) -> gboolean = { _, keyval, keycode, state, data in
    let box = HandlerBox<KeySignalHandler>.borrow(data)
    return MainActor.assumeIsolated { box.handler(keyval, keycode, state) } ? 1 : 0
}

// MARK: Sources (idle, timeout): gboolean (*)(gpointer).

let sourceTrampoline: @convention(c) (gpointer?) -> gboolean = { data in
    let box = HandlerBox<SourceHandler>.borrow(data)
    return MainActor.assumeIsolated { box.handler() } ? 1 : 0
}

// MARK: GIO async calls

/// (source object, result) of a finished GIO async call.
public typealias AsyncReadyHandler = @MainActor (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void

/// A GAsyncReadyCallback whose user_data is a `HandlerBox<AsyncReadyHandler>`
/// passed retained: an async call completes exactly once, so the box is
/// released here, after its handler ran. GIO completes a call on the
/// thread-default main context of the thread that started it: the main one.
public let asyncReadyTrampoline: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
    source, result, data in
    guard let data else { return }
    let box = Unmanaged<HandlerBox<AsyncReadyHandler>>.fromOpaque(data).takeRetainedValue()
    // Borrowed for the call, on this (main) thread: nothing is sent anywhere.
    nonisolated(unsafe) let source = source
    nonisolated(unsafe) let result = result
    MainActor.assumeIsolated { box.handler(source, result) }
}
