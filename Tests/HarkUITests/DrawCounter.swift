import CGtk
import GtkSupport
@testable import HarkUI

/// Counts how often GTK asks a view for its picture: the view's draw
/// function becomes one that counts, then draws the view as before. Setting
/// it queues one draw: let the window settle before counting from here.
@MainActor
final class DrawCounter {
    private(set) var count = 0

    private init(_ area: UnsafeMutablePointer<GtkWidget>, draw: @escaping @MainActor (OpaquePointer, Double, Double) -> Void) {
        DrawingArea.setDraw(hark_drawing_area(area)) { [weak self] cairo, width, height in
            self?.count += 1
            draw(cairo, Double(width), Double(height))
        }
    }

    convenience init(_ view: DrawnView) {
        self.init(view.widget) { [weak view] in view?.draw($0, width: $1, height: $2) }
    }

    convenience init(_ waveform: WaveformView) {
        self.init(waveform.area) { [weak waveform] in waveform?.draw($0, width: $1, height: $2) }
    }
}
