import CGStreamer
import GLibSupport

/// GStreamer, initialised once per process on first use, from any thread.
public enum GStreamer {
    private static let initialised: Bool = {
        var error: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &error) != 0 else { return false }
        for name in networkFetchingDemuxers { neverAutoplug(name) }
        return true
    }()

    /// Demuxers that fetch over the network what a file names: HLS, DASH and
    /// Smooth Streaming playlists, SDP sessions. A stranger's "voice message"
    /// that is such a playlist would make Hark request any address it names
    /// (telling a server the user's address, or reaching into the local
    /// network) while it is analysed or played: none is ever autoplugged, in
    /// any pipeline of Hark's, so such a file is simply no audio.
    static let networkFetchingDemuxers = ["hlsdemux", "hlsdemux2", "dashdemux", "dashdemux2",
                                          "mssdemux", "mssdemux2", "sdpdemux"]

    /// Autoplugging (decodebin, playbin) takes only factories of a rank.
    private static func neverAutoplug(_ name: String) {
        guard let factory = gst_element_factory_find(name) else { return }
        gst_plugin_feature_set_rank(factory,
                                    guint(GST_RANK_NONE.rawValue))
        gst_object_unref(UnsafeMutableRawPointer(factory))
    }

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
