import CGLib
import Foundation
import HarkModel

/// The media player's values as GVariants (floating references, for GDBus to sink).
enum MediaPlayerVariants {
    static func variant(_ value: MediaPlayerValue) -> OpaquePointer {
        switch value {
        case .string(let text): return g_variant_new_string(text)
        case .objectPath(let path): return g_variant_new_object_path(path)
        case .int64(let number): return g_variant_new_int64(gint64(number))
        case .double(let number): return g_variant_new_double(number)
        case .bool(let flag): return g_variant_new_boolean(flag ? 1 : 0)
        case .strings(let texts):
            var copies: [UnsafePointer<gchar>?] = texts.map { UnsafePointer(strdup($0)) }
            defer { copies.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
            return g_variant_new_strv(&copies, gssize(copies.count))
        case .map(let entries): return dictionary(entries)
        }
    }

    /// An `a{sv}`, its keys sorted.
    static func dictionary(_ entries: [String: MediaPlayerValue]) -> OpaquePointer {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        let builder = g_variant_builder_new(type)
        defer { g_variant_builder_unref(builder) }
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(variant(value))))
        }
        return g_variant_builder_end(builder)
    }

    /// A tuple of `values` (a signal's or a reply's parameters).
    static func tuple(_ values: [OpaquePointer?]) -> OpaquePointer {
        var children = values
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// The PropertiesChanged parameters: `(sa{sv}as)`, none invalidated.
    static func propertiesChanged(_ interface: String, _ changed: [String: MediaPlayerValue]) -> OpaquePointer {
        let none = g_variant_type_new("s")
        defer { g_variant_type_free(none) }
        return tuple([g_variant_new_string(interface), dictionary(changed), g_variant_new_array(none, nil, 0)])
    }

    /// The `index`th child of a call's parameters as an int64, or a string.
    static func int64(_ parameters: OpaquePointer?, _ index: Int) -> Int64? {
        child(parameters, index) { String(cString: g_variant_get_type_string($0)) == "x" ? Int64(g_variant_get_int64($0)) : nil }
    }

    static func string(_ parameters: OpaquePointer?, _ index: Int) -> String? {
        child(parameters, index) { value in g_variant_get_string(value, nil).map { String(cString: $0) } }
    }

    private static func child<T>(_ parameters: OpaquePointer?, _ index: Int, _ read: (OpaquePointer) -> T?) -> T? {
        guard let parameters, index < g_variant_n_children(parameters), let value = g_variant_get_child_value(parameters, gsize(index)) else { return nil }
        defer { g_variant_unref(value) }
        return read(value)
    }
}
