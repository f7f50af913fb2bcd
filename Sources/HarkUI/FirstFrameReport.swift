import CGLib
import CGtk
import Foundation
import GLibSupport

/// For `make bench`: with `HARK_REPORT_FIRST_FRAME=1`, the app writes
/// "first frame at <Unix time in ms>" to stderr once its window has painted
/// its first frame, so launch-to-first-frame can be measured from outside.
@MainActor
enum FirstFrameReport {
    static var isWanted: Bool { ProcessInfo.processInfo.environment["HARK_REPORT_FIRST_FRAME"] == "1" }

    static func watch(_ window: UnsafeMutablePointer<GtkWindow>) {
        guard isWanted else { return }
        var reported = false
        Signal.connect(UnsafeMutableRawPointer(window), "map") {
            guard !reported, let clock = gtk_widget_get_frame_clock(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)) else { return }
            Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                guard !reported else { return }
                reported = true
                let milliseconds = Int((Date().timeIntervalSince1970 * 1000).rounded())
                FileHandle.standardError.write(Data("first frame at \(milliseconds)\n".utf8))
            }
        }
    }
}
