import CGLib
import CGStreamer
import CGStreamerHelpers
import GLibSupport

/// What a bus watch sees of one GstMessage, read on the main thread while the
/// message is alive. Keep the values, not the message.
@MainActor
public struct BusMessage {
    /// The message; borrowed, valid only during the callback.
    public let pointer: UnsafeMutablePointer<GstMessage>

    public var type: GstMessageType { hark_gst_message_type(pointer) }
    public var isEndOfStream: Bool { type == GST_MESSAGE_EOS }
    public var isError: Bool { type == GST_MESSAGE_ERROR }

    /// The GstObject that posted the message, by name ("level0", "pipeline0").
    public var sourceName: String? {
        hark_gst_object_name(hark_gst_message_source(pointer)).map { String(cString: $0) }
    }

    /// The structure's name, e.g. "level" for the level element's reports.
    public var structureName: String? {
        guard let structure = gst_message_get_structure(pointer) else { return nil }
        return String(cString: gst_structure_get_name(structure))
    }

    /// The structure, borrowed from the message.
    public var structure: OpaquePointer? {
        gst_message_get_structure(pointer).map { OpaquePointer($0) }
    }

    /// An array-of-doubles field (e.g. "rms", "peak" of a level message).
    public func doubles(_ field: String) -> [Double]? {
        guard let structure = gst_message_get_structure(pointer) else { return nil }
        let count = hark_structure_double_array_length(structure, field)
        guard count >= 0 else { return nil }
        return (0..<count).map { hark_structure_double_array_get(structure, field, guint($0)) }
    }

    /// A GstClockTime field (e.g. "duration" of a level message), in nanoseconds.
    public func clockTime(_ field: String) -> UInt64? {
        guard let structure = gst_message_get_structure(pointer) else { return nil }
        var value: GstClockTime = 0
        guard gst_structure_get_clock_time(structure, field, &value) != 0 else { return nil }
        return UInt64(value)
    }

    /// For an ERROR or WARNING message: the error and the debug details.
    public var error: (error: GLibError, debug: String?)? {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        switch type {
        case GST_MESSAGE_ERROR: gst_message_parse_error(pointer, &gerror, &debug)
        case GST_MESSAGE_WARNING: gst_message_parse_warning(pointer, &gerror, &debug)
        default: return nil
        }
        defer { g_free(debug) }
        guard let gerror else { return nil }
        return (GLibError(consuming: gerror), debug.map { String(cString: $0) })
    }
}

/// Decides whether the watch stays: true to keep watching, false to remove it.
public typealias BusHandler = @MainActor (BusMessage) -> Bool

/// One watch on a pipeline's bus, dispatched on the main thread by the GLib
/// loop. Return false from the handler on EOS or error to remove it, or call
/// `remove()`. A bus takes one watch at a time.
@MainActor
public final class BusWatch {
    private let bus: UnsafeMutablePointer<GstBus>
    private let state: WatchState

    /// Watches the bus of `element` (a pipeline). Fails if it already has a watch.
    public init?(element: UnsafeMutablePointer<GstElement>, priority: Int32 = G_PRIORITY_DEFAULT,
                 _ handler: @escaping BusHandler) {
        guard let bus = gst_element_get_bus(element) else { return nil }
        let state = WatchState()
        let box = HandlerBox<BusHandler> { message in
            let keep = handler(message)
            if !keep { state.attached = false }  // GLib removes the source itself
            return keep
        }
        let data = box.retainedPointer()
        let id = gst_bus_add_watch_full(bus, priority, busTrampoline, data, releaseHandlerBox)
        if id == 0 {
            // The bus already has a watch; GStreamer did not take the box.
            Unmanaged<HandlerBox<BusHandler>>.fromOpaque(data).release()
            gst_object_unref(bus)
            return nil
        }
        self.bus = bus
        self.state = state
        state.attached = true
    }

    /// Removes the watch if the handler has not already done so.
    public func remove() {
        if state.attached {
            state.attached = false
            gst_bus_remove_watch(bus)
        }
    }

    isolated deinit {
        remove()
        gst_object_unref(bus)
    }
}

@MainActor
private final class WatchState {
    var attached = false
}
