import CGLib
import GLibSupport

// The C entry points of the media-player object's GDBus vtable, in a
// non-isolated file as GLibSupport's trampolines are: each borrows its
// HandlerBox and enters the main actor (GDBus calls them on the main
// context the object was registered from).

/// What the object does with a call, a property read and a property write.
struct MediaPlayerHandlers: Sendable {
    let call: @MainActor @Sendable (_ interface: String, _ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) -> Void
    let get: @MainActor @Sendable (_ interface: String, _ property: String) -> OpaquePointer?
    let set: @MainActor @Sendable (_ interface: String, _ property: String, _ value: OpaquePointer?) -> Void
}

let mediaPlayerMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, interface, method, parameters, invocation, data in
    let box = HandlerBox<MediaPlayerHandlers>.borrow(data)
    let interface = interface.map { String(cString: $0) } ?? ""
    let method = method.map { String(cString: $0) } ?? ""
    nonisolated(unsafe) let parameters = parameters  // borrowed for the call, on this thread
    nonisolated(unsafe) let invocation = invocation
    MainActor.assumeIsolated { box.handler.call(interface, method, parameters, invocation) }
}

let mediaPlayerGetProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, interface, property, _, data in
    let box = HandlerBox<MediaPlayerHandlers>.borrow(data)
    let interface = interface.map { String(cString: $0) } ?? ""
    let property = property.map { String(cString: $0) } ?? ""
    nonisolated(unsafe) var value: OpaquePointer?
    MainActor.assumeIsolated { value = box.handler.get(interface, property) }
    return value
}

let mediaPlayerSetProperty: GDBusInterfaceSetPropertyFunc = { _, _, _, interface, property, value, _, data in
    let box = HandlerBox<MediaPlayerHandlers>.borrow(data)
    let interface = interface.map { String(cString: $0) } ?? ""
    let property = property.map { String(cString: $0) } ?? ""
    nonisolated(unsafe) let value = value
    MainActor.assumeIsolated { box.handler.set(interface, property, value) }
    return 1
}

/// The vtable, alive as long as the process (GDBus keeps a pointer to it on older GLib).
nonisolated(unsafe) let mediaPlayerVTable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
    let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
    var vtable = GDBusInterfaceVTable()
    vtable.method_call = mediaPlayerMethodCall
    vtable.get_property = mediaPlayerGetProperty
    vtable.set_property = mediaPlayerSetProperty
    table.initialize(to: vtable)
    return table
}()
