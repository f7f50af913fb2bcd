import CGraphicsProbe
import CGtk
import Foundation

/// GTK draws windows with OpenGL where it can. Where no GPU draws it (virtual
/// machines, remote desktops, older laptops, Xvfb) Mesa's software OpenGL
/// composes the whole window on the CPU for every frame, whatever changed:
/// about 4 ms a frame at 480×640, 8 ms at 1200×900, so a window that shows a
/// level 20 times a second keeps a tenth of a core or more busy. GTK's cairo
/// renderer redraws only what changed. So, before the first window, when
/// the user has chosen no renderer and OpenGL here is software, Hark asks
/// for cairo. GPU-drawn OpenGL keeps GTK's own choice.
@MainActor
enum RendererChoice {
    /// What was chosen and why, for `HARK_REPORT_FRAMES`; nil when GTK chose.
    private(set) static var chosen: String?

    /// Call once GTK is initialised and before any window is realised: GSK
    /// reads `GSK_RENDERER` when the first window is realised. The process
    /// has no threads of its own yet, so setting the variable is safe.
    static func preferCairoOverSoftwareOpenGL() {
        guard ProcessInfo.processInfo.environment["GSK_RENDERER", default: ""].isEmpty,
              let display = gdk_display_get_default() else { return }
        var name = [CChar](repeating: 0, count: 256)
        let software = hark_gl_renderer(display, &name, name.count)
        guard software == 1 else { return }
        setenv("GSK_RENDERER", "cairo", 1)
        let renderer = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chosen = "cairo (OpenGL here is drawn in software: \(renderer))"
    }
}
