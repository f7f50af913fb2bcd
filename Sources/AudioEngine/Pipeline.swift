import CGLib
import CGStreamer
import Foundation
import GLibSupport
import Localization

/// Owns one GStreamer pipeline: parsed from a description, brought to NULL
/// and released when dropped. Not tied to a thread; each user keeps it on one.
final class Pipeline {
    let element: UnsafeMutablePointer<GstElement>

    init(description: String) throws(AudioError) {
        GStreamer.ensureInitialised()
        var error: UnsafeMutablePointer<GError>?
        let parsed = gst_parse_launch_full(description, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let error {
            let message = GLibError(consuming: error).message
            if let parsed { gst_object_unref(UnsafeMutableRawPointer(parsed)) }
            throw .invalidSource(detail: message)
        }
        guard let parsed else { throw .invalidSource(detail: tr("empty description")) }
        // A pipeline description always yields a pipeline or bin; take ownership of its floating ref.
        element = parsed
        gst_object_ref_sink(UnsafeMutableRawPointer(parsed))
    }

    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(element))
    }

    /// A named element inside; borrowed (valid while the pipeline lives).
    func child(_ name: String) -> UnsafeMutablePointer<GstElement>? {
        guard let found = gst_bin_get_by_name(hark_gst_bin(element), name) else { return nil }
        gst_object_unref(UnsafeMutableRawPointer(found))  // the bin keeps it alive
        return found
    }

    @discardableResult
    func setState(_ state: GstState) -> GstStateChangeReturn {
        gst_element_set_state(element, state)
    }

    /// Sends end-of-stream into every source, so each element drains and the
    /// file ends cleanly.
    func sendEndOfStream() {
        _ = gst_element_send_event(element, gst_event_new_eos())
    }

    var position: Double? {
        var value: gint64 = 0
        guard gst_element_query_position(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return GStreamer.seconds(GstClockTime(value))
    }

    var duration: Double? {
        var value: gint64 = 0
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return GStreamer.seconds(GstClockTime(value))
    }

    /// The first error waiting on the bus, taken off it; for code that has no
    /// bus watch (synchronous failures, the analyser's thread).
    func popError() -> (error: GLibError, source: String?)? {
        guard let bus = gst_element_get_bus(element) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        guard let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { hark_gst_message_unref(message) }
        return Self.parseError(message)
    }

    /// `value` as one quoted token of a pipeline description (a path, a
    /// device name), whatever quotes or backslashes it holds.
    static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A `file://` URI for `path` (relative to the working directory), for playbin.
    static func fileURI(_ path: String) throws(AudioError) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(absolute, nil, &error) else {
            let detail = error.map { GLibError(consuming: $0).message } ?? tr("bad file name")
            throw .notAudio(path: path, detail: detail)
        }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    static func parseError(_ message: UnsafeMutablePointer<GstMessage>) -> (error: GLibError, source: String?)? {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &gerror, &debug)
        g_free(debug)
        guard let gerror else { return nil }
        let source = hark_gst_object_name(hark_gst_message_source(message)).map { String(cString: $0) }
        return (GLibError(consuming: gerror), source)
    }
}
