import CGLib

/// Handler shapes for GObject signals, by their C arguments after the instance.
public typealias SignalHandler = @MainActor () -> Void
/// One pointer argument, e.g. `notify` (GParamSpec*) or `activate` (GVariant*).
public typealias PointerSignalHandler = @MainActor (UnsafeMutableRawPointer?) -> Void
/// No argument, returns a gboolean, e.g. `close-request`.
public typealias BoolSignalHandler = @MainActor () -> Bool
/// Two doubles, e.g. GtkGestureDrag `drag-update`, GtkEventControllerMotion `motion`.
public typealias PointSignalHandler = @MainActor (Double, Double) -> Void
/// GtkGestureClick `pressed` / `released`: press count, x, y.
public typealias PressSignalHandler = @MainActor (Int, Double, Double) -> Void
/// One pointer argument, returns a gboolean, e.g. GtkEventControllerLegacy `event`.
public typealias PointerBoolSignalHandler = @MainActor (UnsafeMutableRawPointer?) -> Bool
/// An enum (or gint) and a pointer, e.g. SoupMessage `network-event` (GSocketClientEvent, GIOStream*).
public typealias IntPointerSignalHandler = @MainActor (Int, UnsafeMutableRawPointer?) -> Void
/// GtkEventControllerKey `key-pressed`: keyval, keycode, modifier state; true stops propagation.
public typealias KeySignalHandler = @MainActor (UInt32, UInt32, UInt32) -> Bool
/// One gint argument, e.g. GtkNativeDialog `response`.
public typealias IntSignalHandler = @MainActor (Int) -> Void
/// (width, height): GtkDrawingArea's `resize`.
public typealias SizeSignalHandler = @MainActor (Int, Int) -> Void
/// Two doubles, returns a new reference or NULL, e.g. GtkDragSource `prepare`
/// (the GdkContentProvider to drag).
public typealias PointPointerSignalHandler = @MainActor (Double, Double) -> UnsafeMutableRawPointer?
/// GtkDropTarget `drop`: the dropped GValue*, x, y; true accepts the drop.
public typealias DropSignalHandler = @MainActor (UnsafeMutableRawPointer?, Double, Double) -> Bool

/// Connects Swift closures to GObject signals, one method per C handler shape
/// (distinct names, so a trailing closure is never ambiguous). The closure is kept alive by the
/// connection and released when it is disconnected or the instance dies.
/// Returns the handler id (never 0 for a signal the instance has).
@MainActor
public enum Signal {
    @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping SignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(voidSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectPointer(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping PointerSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(pointerSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectReturning(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping BoolSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(boolSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectPoint(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping PointSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(pointDoubleSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectPress(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping PressSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(pressSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectInt(_ instance: UnsafeMutableRawPointer, _ name: String,
                                  _ handler: @escaping IntSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(intSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    /// GtkDrawingArea's `resize` (width, height).
    @discardableResult
    public static func connectResize(_ instance: UnsafeMutableRawPointer, _ handler: @escaping SizeSignalHandler) -> UInt {
        attach(instance, "resize", unsafeBitCast(sizeSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectDrop(_ instance: UnsafeMutableRawPointer, _ name: String,
                                   _ handler: @escaping DropSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(dropSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectPointReturningPointer(_ instance: UnsafeMutableRawPointer, _ name: String,
                                                    _ handler: @escaping PointPointerSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(pointPointerSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectKey(_ instance: UnsafeMutableRawPointer, _ name: String,
                               _ handler: @escaping KeySignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(keySignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectPointerReturning(_ instance: UnsafeMutableRawPointer, _ name: String,
                                               _ handler: @escaping PointerBoolSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(pointerBoolSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    @discardableResult
    public static func connectIntPointer(_ instance: UnsafeMutableRawPointer, _ name: String,
                                         _ handler: @escaping IntPointerSignalHandler) -> UInt {
        attach(instance, name, unsafeBitCast(intPointerSignalTrampoline, to: GCallback.self), HandlerBox(handler))
    }

    /// Disconnects a handler; its closure is released by GLib's destroy notify.
    public static func disconnect(_ instance: UnsafeMutableRawPointer, _ handlerID: UInt) {
        if g_signal_handler_is_connected(instance, gulong(handlerID)) != 0 {
            g_signal_handler_disconnect(instance, gulong(handlerID))
        }
    }

    private static func attach<H>(_ instance: UnsafeMutableRawPointer, _ name: String,
                                   _ trampoline: GCallback, _ box: HandlerBox<H>) -> UInt {
        let data = box.retainedPointer()
        let id = hark_signal_connect(instance, name, trampoline, data, releaseClosureHandlerBox)
        if id == 0 {
            // GLib already logged the unknown signal; nothing holds the box now.
            Unmanaged<HandlerBox<H>>.fromOpaque(data).release()
        }
        return UInt(id)
    }
}
