import CCairo
import Levels

/// A waveform rendered to a PNG file, with the painter the widgets use.
public enum WaveformImage {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Renders `levels` (their RMS, mapped with `mapping`) at `width` × `height`.
    public static func writePNG(levels: LevelTrack, to path: String, width: Int, height: Int, played: Double,
                                style: WaveformStyle = .bars, colors: WaveformColors = .light,
                                mapping: DisplayMapping = .standard) throws(Failure) {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else {
            throw Failure(description: "the image must be between 1 and 16384 pixels each way")
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        WaveformPainter.draw(cairo, width: Double(width), height: Double(height),
                             fractions: mapping.fractions(levels.rms), played: played, colors: colors, style: style)
        cairo_destroy(cairo)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "\(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
