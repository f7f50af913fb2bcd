import CGLib
import GLibSupport

// The C entry points of this module's callbacks, global constants in a
// non-isolated file (see GLibSupport/Trampolines.swift for why). GIO's async
// calls complete on the main context of the thread that started them: the
// main one here, so `assumeIsolated` holds (and traps if it ever did not).

/// (source object, result) of a finished GIO async call.
typealias AsyncReadyHandler = @MainActor (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void

/// A GAsyncReadyCallback whose user_data is a `HandlerBox<AsyncReadyHandler>`
/// passed retained: released here, after its handler ran (once per call).
let asyncReadyTrampoline: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
    source, result, data in
    guard let data else { return }
    let box = Unmanaged<HandlerBox<AsyncReadyHandler>>.fromOpaque(data).takeRetainedValue()
    nonisolated(unsafe) let source = source  // borrowed for the call, on this (main) thread
    nonisolated(unsafe) let result = result
    MainActor.assumeIsolated { box.handler(source, result) }
}

/// A GSpawnChildSetupFunc, run in the child between fork and exec: the child
/// leads a process group of its own, so the whole of it (the installer and
/// the pip it runs) can be ended at once. Only async-signal-safe calls here.
let ownProcessGroupChildSetup: @convention(c) (gpointer?) -> Void = { _ in
    _ = setpgid(0, 0)
}
