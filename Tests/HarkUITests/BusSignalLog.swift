import CGLib
import Foundation

/// The signals a test hears on the session bus, each as its name and its
/// parameters printed by GLib ("PropertiesChanged ('org.mpris…', {…}, [])").
final class BusSignalLog: @unchecked Sendable {
    private(set) var heard: [String] = []
    private var connection: OpaquePointer?
    private var subscription: guint = 0

    /// Listens on the process's own session connection (the one the window
    /// serves from: the bus sends a connection the signals it emits too).
    init(path: String) {
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil)
        subscription = g_dbus_connection_signal_subscribe(connection, nil, nil, nil, path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                                                          busSignalHeard, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    func append(_ line: String) { heard.append(line) }

    deinit {
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}

/// Called on the main context the log subscribed from.
let busSignalHeard: GDBusSignalCallback = { _, _, _, _, signal, parameters, data in
    let log = Unmanaged<BusSignalLog>.fromOpaque(data!).takeUnretainedValue()
    let printed = g_variant_print(parameters, 0).map { text in defer { g_free(text) }; return String(cString: text) } ?? ""
    log.append("\(signal.map { String(cString: $0) } ?? "") \(printed)")
}
