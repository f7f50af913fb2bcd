import CGtk
import GLibSupport

/// A widget laid out by Swift closures (a GtkCustomLayout): how big it
/// wants to be, and where its children go in the size it gets. For a layout
/// no GtkBox or GtkGrid makes, such as one that changes with the width.
@MainActor
public enum CustomLayout {
    /// The minimum and natural size along `orientation`, for `forSize`
    /// pixels the other way (-1: not known).
    public typealias Measure = @MainActor (_ orientation: GtkOrientation, _ forSize: Int32) -> (minimum: Int32, natural: Int32)
    /// Places the children in `width` × `height` (gtk_widget_size_allocate).
    public typealias Allocate = @MainActor (_ width: Int32, _ height: Int32, _ baseline: Int32) -> Void

    private struct Handlers {
        let heightForWidth: Bool
        let measure: Measure
        let allocate: Allocate
    }

    /// By widget, until the widget is destroyed.
    private static var handlers: [UnsafeMutableRawPointer: Handlers] = [:]

    /// Lays `widget` out with `measure` and `allocate` from now on;
    /// `heightForWidth`: its height depends on the width it is given.
    public static func install(on widget: UnsafeMutablePointer<GtkWidget>, heightForWidth: Bool,
                               measure: @escaping Measure, allocate: @escaping Allocate) {
        let key = UnsafeMutableRawPointer(widget)
        handlers[key] = Handlers(heightForWidth: heightForWidth, measure: measure, allocate: allocate)
        Signal.connect(key, "destroy") { handlers[key] = nil }
        // The widget owns its layout manager.
        gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(customLayoutRequestModeTrampoline,
                                                                   customLayoutMeasureTrampoline,
                                                                   customLayoutAllocateTrampoline))
    }

    static func requestMode(of widget: UnsafeMutablePointer<GtkWidget>?) -> GtkSizeRequestMode {
        guard let widget, let found = handlers[UnsafeMutableRawPointer(widget)], found.heightForWidth else {
            return GTK_SIZE_REQUEST_CONSTANT_SIZE
        }
        return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH
    }

    static func measure(_ widget: UnsafeMutablePointer<GtkWidget>?, _ orientation: GtkOrientation,
                        _ forSize: Int32) -> (minimum: Int32, natural: Int32) {
        guard let widget, let found = handlers[UnsafeMutableRawPointer(widget)] else { return (0, 0) }
        return found.measure(orientation, forSize)
    }

    static func allocate(_ widget: UnsafeMutablePointer<GtkWidget>?, _ width: Int32, _ height: Int32, _ baseline: Int32) {
        guard let widget, let found = handlers[UnsafeMutableRawPointer(widget)] else { return }
        found.allocate(width, height, baseline)
    }
}
