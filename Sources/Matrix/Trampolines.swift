import CGLib
import GLibSupport

// The C entry points of the callbacks this module registers, global constants
// in a non-isolated file (see GLibSupport/Trampolines.swift for why). Each
// enters the main actor with `assumeIsolated`, which traps if a callback ever
// arrives on another thread: GIO's async calls complete on the thread-default
// main context of the thread that started them, the main one here.

/// (source object, result) of a finished GIO async call.
typealias AsyncReadyHandler = @MainActor (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void

/// A GAsyncReadyCallback whose user_data is a `HandlerBox<AsyncReadyHandler>`
/// passed retained: an async call completes exactly once, so the box is
/// released here, after its handler ran.
let asyncReadyTrampoline: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
    source, result, data in
    guard let data else { return }
    let box = Unmanaged<HandlerBox<AsyncReadyHandler>>.fromOpaque(data).takeRetainedValue()
    // Borrowed for the call, on this (main) thread: nothing is sent anywhere.
    nonisolated(unsafe) let source = source
    nonisolated(unsafe) let result = result
    MainActor.assumeIsolated { box.handler(source, result) }
}
