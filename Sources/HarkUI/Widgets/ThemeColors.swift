import CAdwaita
import CGtk
import Drawing

/// The libadwaita colours a widget is drawn in right now: the theme's accent
/// for what is played, the text colour (muted; less so in high contrast) for
/// the rest. Read at draw time, so light, dark, high contrast and the accent
/// follow the desktop.
@MainActor
enum ThemeColors {
    static func foreground(of widget: UnsafeMutablePointer<GtkWidget>) -> RGBA {
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
        return RGBA(Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
    }

    static func accent(of widget: UnsafeMutablePointer<GtkWidget>) -> RGBA {
        var color = GdkRGBA()
        if gtk_style_context_lookup_color(gtk_widget_get_style_context(widget), "accent_color", &color) != 0 {
            return RGBA(Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
        }
        return RGBA(hex: 0x3584E4)
    }

    static var highContrast: Bool {
        adw_style_manager_get_high_contrast(adw_style_manager_get_default()) != 0
    }

    static func waveform(of widget: UnsafeMutablePointer<GtkWidget>) -> WaveformColors {
        var muted = foreground(of: widget)
        muted.alpha *= highContrast ? 0.9 : 0.55
        return WaveformColors(played: accent(of: widget), unplayed: muted, background: nil)
    }
}
