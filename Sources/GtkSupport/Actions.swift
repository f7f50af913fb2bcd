import CGtk
import GLibSupport

@MainActor
public enum Actions {
    /// Adds a parameterless action named `name` to `map` (an application or a
    /// window: anything implementing GActionMap) that calls `activate`.
    @discardableResult
    public static func add(to map: UnsafeMutableRawPointer, _ name: String,
                           _ activate: @escaping SignalHandler) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        Signal.connectPointer(UnsafeMutableRawPointer(action), "activate") { _ in activate() }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))  // the map holds it now; we return it borrowed
        return action
    }

    /// Adds an action named `name` to `map` that takes a string (an id, say)
    /// and calls `activate` with it.
    @discardableResult
    public static func addTakingString(to map: UnsafeMutableRawPointer, _ name: String,
                                       _ activate: @escaping @MainActor (String) -> Void) -> OpaquePointer {
        let type = g_variant_type_new("s")
        let action = g_simple_action_new(name, type)!
        g_variant_type_free(type)
        Signal.connectPointer(UnsafeMutableRawPointer(action), "activate") { value in
            guard let value, let text = g_variant_get_string(OpaquePointer(value), nil) else { return }
            activate(String(cString: text))
        }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))  // the map holds it now; we return it borrowed
        return action
    }

    /// Sets the keyboard shortcuts of a detailed action ("app.quit", "win.record").
    public static func setAccels(_ application: UnsafeMutablePointer<GtkApplication>,
                                 _ detailedAction: String, _ accels: [String]) {
        var strings = accels.map { strdup($0) }
        strings.append(nil)
        defer { strings.forEach { free($0) } }
        strings.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(application, detailedAction, $0)
            }
        }
    }

    /// The keyboard shortcuts of a detailed action, as GTK parsed them.
    public static func accels(_ application: UnsafeMutablePointer<GtkApplication>,
                              _ detailedAction: String) -> [String] {
        guard let list = gtk_application_get_accels_for_action(application, detailedAction) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var index = 0
        while let entry = list[index] {
            result.append(String(cString: entry))
            index += 1
        }
        return result
    }
}
