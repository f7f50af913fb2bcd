import CGLib
import Foundation

/// A desktop notification server on the test's session bus: it owns
/// `org.freedesktop.Notifications`, as GNOME Shell does, keeps what each
/// Notify shows, and says `ActionInvoked` as a click on a notification or
/// one of its buttons does. GLib sends an application's notifications
/// there when no portal and no `org.gtk.Notifications` serve it.
final class NotificationServer: @unchecked Sendable {
    struct Shown: Equatable {
        let id: UInt32
        let summary: String
        let body: String
        /// Pairs of action key and label, as the specification lists them.
        let actions: [String]

        /// The key of the button labelled `label`.
        func key(of label: String) -> String? {
            stride(from: 0, to: actions.count - 1, by: 2).first { actions[$0 + 1] == label }.map { actions[$0] }
        }
    }

    private(set) var shown: [Shown] = []
    private let connection: OpaquePointer
    private var registration: guint = 0
    private var lastID: UInt32 = 0
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private static let introspection = """
        <node><interface name="org.freedesktop.Notifications">
          <method name="Notify">
            <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
            <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
            <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
          </method>
          <method name="CloseNotification"><arg type="u" direction="in"/></method>
          <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
          <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
        </interface></node>
        """

    /// On a connection of its own, as a server in another process would be.
    init() throws {
        var error: UnsafeMutablePointer<GError>?
        func failure() -> Error {
            defer { if error != nil { g_error_free(error) } }
            return NSError(domain: "NotificationServer", code: 1,
                           userInfo: [NSLocalizedDescriptionKey: error.map { String(cString: $0.pointee.message) } ?? "?"])
        }
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else { throw failure() }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else { throw failure() }
        self.connection = connection
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else { throw failure() }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = notificationMethodCalled
        registration = g_dbus_connection_register_object(connection, Self.path, node.pointee.interfaces[0], &vtable,
                                                         Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        guard registration != 0 else { throw failure() }
        var arguments: [OpaquePointer?] = [g_variant_new_string(Self.name), g_variant_new_uint32(4)]  // DO_NOT_QUEUE
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "RequestName",
                                                      g_variant_new_tuple(&arguments, 2), nil, G_DBUS_CALL_FLAGS_NONE,
                                                      -1, nil, &error) else { throw failure() }
        var answer: guint32 = 0
        let child = g_variant_get_child_value(reply, 0)
        answer = g_variant_get_uint32(child)
        g_variant_unref(child)
        g_variant_unref(reply)
        guard answer == 1 else { throw NSError(domain: "NotificationServer", code: Int(answer)) }  // primary owner
    }

    /// A click on notification `id`'s action `key` ("default" for the
    /// notification itself); the notification closes, as after a click.
    func invoke(_ key: String, on id: UInt32) {
        var arguments: [OpaquePointer?] = [g_variant_new_uint32(id), g_variant_new_string(key)]
        g_dbus_connection_emit_signal(connection, nil, Self.path, Self.name, "ActionInvoked",
                                      g_variant_new_tuple(&arguments, 2), nil)
        // As a server does after a click (the notification is not resident): closed, reason 2, dismissed.
        var closed: [OpaquePointer?] = [g_variant_new_uint32(id), g_variant_new_uint32(2)]
        g_dbus_connection_emit_signal(connection, nil, Self.path, Self.name, "NotificationClosed",
                                      g_variant_new_tuple(&closed, 2), nil)
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    func stop() {
        g_dbus_connection_unregister_object(connection, registration)
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    fileprivate func handle(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?) {
        func string(_ index: gsize) -> String {
            let child = g_variant_get_child_value(parameters, index)
            defer { g_variant_unref(child) }
            return String(cString: g_variant_get_string(child, nil))
        }
        switch method {
        case "Notify":
            let actionsValue = g_variant_get_child_value(parameters, 5)
            var count: gsize = 0
            let strings = g_variant_get_strv(actionsValue, &count)
            let actions = (0..<Int(count)).map { String(cString: strings![$0]!) }
            g_free(strings)
            g_variant_unref(actionsValue)
            let replaces = g_variant_get_child_value(parameters, 1)
            var id = g_variant_get_uint32(replaces)
            g_variant_unref(replaces)
            if id == 0 {
                lastID += 1
                id = lastID
            }
            shown.append(Shown(id: id, summary: string(3), body: string(4), actions: actions))
            var reply: [OpaquePointer?] = [g_variant_new_uint32(id)]
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&reply, 1))
        case "CloseNotification":
            g_dbus_method_invocation_return_value(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method)
        }
    }
}

/// Called on the main context the server registered from.
private let notificationMethodCalled: GDBusInterfaceMethodCallFunc = { _, _, _, _, method, parameters, invocation, data in
    let server = Unmanaged<NotificationServer>.fromOpaque(data!).takeUnretainedValue()
    server.handle(String(cString: method!), parameters, invocation)
}
