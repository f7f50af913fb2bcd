import CGLib

/// Owns one reference to a GObject and drops it when the Swift object dies.
///
/// Floating references (fresh GTK widgets, GStreamer elements) are sunk, so the
/// wrapper always holds a real reference of its own; `deinit` runs isolated to
/// the main actor, where the GLib main loop owns every object we hold.
@MainActor
public final class ObjectRef {
    /// The instance, as a `gpointer` for C calls that take any GObject.
    public let pointer: UnsafeMutableRawPointer

    /// Adopts `pointer`: sinks a floating reference, or takes a new one.
    /// Use for objects whose reference the caller does not own.
    public init(retaining pointer: UnsafeMutableRawPointer) {
        precondition(hark_is_object(pointer) != 0, "ObjectRef(retaining:) needs a GObject")
        self.pointer = pointer
        g_object_ref_sink(pointer)
    }

    /// Takes over a reference the caller owns (a `transfer full` return value).
    /// A floating reference is sunk, turning it into the one we own.
    public init(owning pointer: UnsafeMutableRawPointer) {
        precondition(hark_is_object(pointer) != 0, "ObjectRef(owning:) needs a GObject")
        self.pointer = pointer
        if hark_object_is_floating(pointer) != 0 {
            g_object_ref_sink(pointer)  // clears the flag; the count stays as it was
        }
    }

    isolated deinit {
        g_object_unref(pointer)
    }

    /// The instance as a typed C pointer, e.g. `ref.as(GtkWidget.self)`.
    public func `as`<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        pointer.assumingMemoryBound(to: T.self)
    }

    /// The instance as an opaque pointer, for types whose struct is private.
    public var opaque: OpaquePointer { OpaquePointer(pointer) }

    /// The GType name, e.g. "GtkLabel".
    public var typeName: String { String(cString: hark_object_type_name(pointer)) }

    @discardableResult
    public func connect(_ signal: String, _ handler: @escaping SignalHandler) -> UInt {
        Signal.connect(pointer, signal, handler)
    }

    @discardableResult
    public func connectPointer(_ signal: String, _ handler: @escaping PointerSignalHandler) -> UInt {
        Signal.connectPointer(pointer, signal, handler)
    }

    @discardableResult
    public func connectReturning(_ signal: String, _ handler: @escaping BoolSignalHandler) -> UInt {
        Signal.connectReturning(pointer, signal, handler)
    }

    public func disconnect(_ handlerID: UInt) {
        Signal.disconnect(pointer, handlerID)
    }
}
