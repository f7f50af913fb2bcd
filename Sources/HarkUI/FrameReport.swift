import CGLib
import CGtk
import Foundation
import GLibSupport

/// For `make bench`, reports of the window's drawing on stderr:
/// - `HARK_REPORT_FIRST_FRAME=1`: "first frame at <Unix time in ms>" once the
///   window has painted its first frame (launch-to-first-frame time);
/// - `HARK_REPORT_FRAMES=1`: "frames <count> at <Unix time in ms>, longest
///   gap <ms> ms" once a second, the frame clock's count of painted frames so
///   far (frames per second while recording or playing) and the longest time
///   between two painted frames in that second (while the window animates, a
///   frame later than it should be: the main loop was held up). Counting is a
///   signal handler, not a tick callback, so it never makes GTK draw a frame.
@MainActor
enum FrameReport {
    private static let environment = ProcessInfo.processInfo.environment
    static var isWanted: Bool { environment["HARK_REPORT_FIRST_FRAME"] == "1" || environment["HARK_REPORT_FRAMES"] == "1" }

    static func watch(_ window: UnsafeMutablePointer<GtkWindow>) {
        guard isWanted else { return }
        var watching = false
        Signal.connect(UnsafeMutableRawPointer(window), "map") {
            guard !watching, let clock = gtk_widget_get_frame_clock(widget(window)) else { return }
            watching = true
            if environment["HARK_REPORT_FIRST_FRAME"] == "1" { reportFirstFrame(of: clock) }
            if environment["HARK_REPORT_FRAMES"] == "1" {
                write("renderer: \(RendererChoice.chosen ?? "GTK's choice")")
                reportFrameCount(of: clock)
            }
        }
    }

    private static func widget(_ window: UnsafeMutablePointer<GtkWindow>) -> UnsafeMutablePointer<GtkWidget> {
        UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)
    }

    private static var milliseconds: Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private static func reportFirstFrame(of clock: OpaquePointer) {
        var reported = false
        Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
            guard !reported else { return }
            reported = true
            write("first frame at \(milliseconds)")
        }
    }

    private static func reportFrameCount(of clock: OpaquePointer) {
        var painted = 0
        var last: Int?
        var longestGap = 0
        Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
            painted += 1
            let now = g_get_monotonic_time()
            if let last { longestGap = max(longestGap, now - last) }
            last = now
        }
        MainLoop.timeout(milliseconds: 1000) {
            write("frames \(painted) at \(milliseconds), longest gap \(longestGap / 1000) ms")
            longestGap = 0
            return true
        }
    }
}
