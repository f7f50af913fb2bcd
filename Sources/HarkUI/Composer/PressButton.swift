import CAdwaita
import CGLib
import CGtk
import GLibSupport

/// A button that acts the moment it is pressed, for controls whose timing is
/// the content (Record, Stop, Pause): GtkButton's "clicked" comes at the
/// pointer's release, and after a keyboard or screen reader activation only
/// once its 250 ms pressed look is over, so that much of the user's speech
/// would be lost or added.
///
/// Activation (Space, Enter, a mnemonic, a screen reader's action) arrives as
/// the button's "activate" signal and acts there; a pointer or touch press is
/// caught by a capture-phase click gesture (or, for Record, by HoldToRecord).
/// The "clicked" that follows is not used.
@MainActor
enum PressButton {
    /// A button showing an icon that may change while it is pressed. Its
    /// image stays the same widget (gtk_button_set_icon_name would put a new
    /// one in): destroying the widget under the pointer in the middle of a
    /// press leaves GTK's pointer state broken, and the next press without a
    /// move is lost. The image takes no events: the button is the target.
    static func iconButton(_ icon: String) -> (button: UnsafeMutablePointer<GtkWidget>, image: UnsafeMutablePointer<GtkWidget>) {
        let button = gtk_button_new()!
        let image = gtk_image_new_from_icon_name(icon)!
        gtk_widget_set_can_target(image, 0)
        gtk_button_set_child(hark_button(button), image)
        gtk_widget_add_css_class(button, "image-button")  // as gtk_button_new_from_icon_name styles it
        return (button, image)
    }

    static func setIcon(_ image: UnsafeMutablePointer<GtkWidget>, _ icon: String) {
        gtk_image_set_from_icon_name(hark_image(image), icon)
    }

    /// Calls `action` on every activation of `button` (keyboard, mnemonic, accessible action).
    static func onActivate(_ button: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        Signal.connect(UnsafeMutableRawPointer(button), "activate", action)
    }

    /// Calls `action` at every activation and at every primary press of
    /// `button`, watched from `ancestor` (see `watchPointer`).
    static func onPress(_ button: UnsafeMutablePointer<GtkWidget>, watchedFrom ancestor: UnsafeMutablePointer<GtkWidget>,
                        _ action: @escaping @MainActor () -> Void) {
        onActivate(button, action)
        watchPointer(on: button, from: ancestor) { phase, _, _ in if phase == .press { action() } }
    }

    enum PointerPhase { case press, move, release }

    /// Reports the primary button's (or a touch's) press on `button`, the
    /// moves while it is down, and the release, with positions in the
    /// surface's coordinates. Raw events in the capture phase of `ancestor`,
    /// never claimed (the button still draws its pressed look), and a press
    /// counts by where it lands, not by GTK's choice of target: after the
    /// layout changes under a pointer that has not moved (Record becoming
    /// Stop while the list grows), GTK 4.8 delivers the next press to the
    /// widget that was under it before, and a click on Stop would be lost.
    static func watchPointer(on button: UnsafeMutablePointer<GtkWidget>, from ancestor: UnsafeMutablePointer<GtkWidget>,
                             _ report: @escaping @MainActor (PointerPhase, Double, Double) -> Void) {
        let events = gtk_event_controller_legacy_new()!
        gtk_event_controller_set_propagation_phase(events, GTK_PHASE_CAPTURE)
        var down = false
        Signal.connectPointerReturning(UnsafeMutableRawPointer(events), "event") { event in
            guard let event else { return false }
            let raw = OpaquePointer(event)
            var x = 0.0, y = 0.0
            _ = gdk_event_get_position(raw, &x, &y)
            switch gdk_event_get_event_type(raw) {
            case GDK_BUTTON_PRESS where gdk_button_event_get_button(raw) == guint(GDK_BUTTON_PRIMARY),
                 GDK_TOUCH_BEGIN:
                guard lands(on: button, x, y) else { return false }
                down = true
                report(.press, x, y)
            case GDK_MOTION_NOTIFY where down, GDK_TOUCH_UPDATE where down:
                report(.move, x, y)
            case GDK_BUTTON_RELEASE where down && gdk_button_event_get_button(raw) == guint(GDK_BUTTON_PRIMARY),
                 GDK_TOUCH_END where down, GDK_TOUCH_CANCEL where down, GDK_GRAB_BROKEN where down:
                down = false
                report(.release, x, y)
            default:
                break
            }
            return false
        }
        gtk_widget_add_controller(ancestor, events)
    }

    /// Whether a point in the surface's coordinates lies on `button`, which
    /// takes input now (shown and sensitive).
    private static func lands(on button: UnsafeMutablePointer<GtkWidget>, _ x: Double, _ y: Double) -> Bool {
        guard gtk_widget_is_sensitive(button) != 0, gtk_widget_get_mapped(button) != 0,
              let native = gtk_widget_get_native(button) else { return false }
        var surfaceX = 0.0, surfaceY = 0.0
        gtk_native_get_surface_transform(native, &surfaceX, &surfaceY)
        let nativeWidget = UnsafeMutableRawPointer(native).assumingMemoryBound(to: GtkWidget.self)
        var point = graphene_point_t(x: Float(x - surfaceX), y: Float(y - surfaceY))
        var local = graphene_point_t()
        guard gtk_widget_compute_point(nativeWidget, button, &point, &local) != 0 else { return false }
        return gtk_widget_contains(button, Double(local.x), Double(local.y)) != 0
    }
}
