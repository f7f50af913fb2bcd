import CGStreamer
import GLibSupport

/// GStreamer, initialised once per process on first use, from any thread.
public enum GStreamer {
    private static let initialised: Bool = {
        var error: UnsafeMutablePointer<GError>?
        return gst_init_check(nil, nil, &error) != 0
    }()

    /// Initialises GStreamer if needed; false if it cannot start at all.
    @discardableResult
    public static func ensureInitialised() -> Bool { initialised }

    /// Whether an element factory (plugin) is installed.
    public static func hasElement(_ name: String) -> Bool {
        ensureInitialised()
        guard let factory = gst_element_factory_find(name) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }

    static var second: Double { Double(hark_gst_second()) }

    static func seconds(_ time: GstClockTime) -> Double { Double(time) / second }

    /// GST_CLOCK_TIME_NONE: "no time".
    static let clockTimeNone = GstClockTime.max

    static func clockTime(_ seconds: Double) -> GstClockTime { GstClockTime(max(0, seconds) * second) }
}
