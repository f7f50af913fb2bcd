import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport

/// A row's title with the time of day and duration ("5:15 PM · 0:19")
/// beside it, or under it where the row is narrow: at 360 px the time
/// beside left the title "Voic…" while the row had room for it. A title cut
/// at any width shows whole in its tooltip.
@MainActor
final class TitleLine {
    let widget: UnsafeMutablePointer<GtkWidget>
    let title: UnsafeMutablePointer<GtkWidget>
    /// The time of day and the duration.
    let when: UnsafeMutablePointer<GtkWidget>
    /// Whether the time went under the title at the last allocation.
    private(set) var isStacked = false
    /// Whether the title was cut (ellipsized) at the last allocation.
    private(set) var isCut = false
    private let lifetime: WidgetLifetime

    nonisolated static let spacing: Int32 = 8

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!  // laid out below, not as a box
        lifetime = WidgetLifetime(of: widget)
        title = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(title), 0)
        gtk_label_set_ellipsize(hark_label(title), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(title, "heading")
        gtk_box_append(hark_box(widget), title)
        when = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(when), 0)
        gtk_widget_add_css_class(when, "caption")
        gtk_widget_add_css_class(when, "dim-label")
        gtk_widget_add_css_class(when, "numeric")
        gtk_box_append(hark_box(widget), when)
        CustomLayout.install(on: widget, heightForWidth: true, measure: { [weak self] orientation, forSize in
            self?.measure(orientation, forSize) ?? (0, 0)
        }, allocate: { [weak self] width, height, _ in
            self?.allocate(width: width, height: height)
        })
    }

    var text: String {
        get { gtk_label_get_text(hark_label(title)).map { String(cString: $0) } ?? "" }
        set {
            gtk_label_set_text(hark_label(title), newValue)
            updateTooltip()
        }
    }

    /// Whether the time goes under the title in `width`: beside it, the
    /// title keeps at least twice the time's width, or the time goes under.
    nonisolated static func stacks(width: Int32, when: Int32) -> Bool {
        width - when - spacing < 2 * when
    }

    private static func size(_ widget: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation,
                             for other: Int32 = -1) -> (minimum: Int32, natural: Int32) {
        guard gtk_widget_get_visible(widget) != 0 else { return (0, 0) }
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(widget, orientation, other, &minimum, &natural, nil, nil)
        return (minimum, natural)
    }

    private func measure(_ orientation: GtkOrientation, _ forSize: Int32) -> (minimum: Int32, natural: Int32) {
        let titleWidth = Self.size(title, GTK_ORIENTATION_HORIZONTAL)
        let whenWidth = Self.size(when, GTK_ORIENTATION_HORIZONTAL).natural
        if orientation == GTK_ORIENTATION_HORIZONTAL {
            // Stacked, the row can shrink to the time's width.
            return (max(titleWidth.minimum, whenWidth), titleWidth.natural + Self.spacing + whenWidth)
        }
        let width = forSize < 0 ? titleWidth.natural + Self.spacing + whenWidth : forSize
        if Self.stacks(width: width, when: whenWidth) {
            let titleHeight = Self.size(title, GTK_ORIENTATION_VERTICAL, for: width)
            let whenHeight = Self.size(when, GTK_ORIENTATION_VERTICAL, for: width)
            return (titleHeight.minimum + whenHeight.minimum, titleHeight.natural + whenHeight.natural)
        }
        let titleHeight = Self.size(title, GTK_ORIENTATION_VERTICAL, for: max(0, width - whenWidth - Self.spacing))
        let whenHeight = Self.size(when, GTK_ORIENTATION_VERTICAL, for: whenWidth)
        return (max(titleHeight.minimum, whenHeight.minimum), max(titleHeight.natural, whenHeight.natural))
    }

    private func allocate(width: Int32, height: Int32) {
        let titleNatural = Self.size(title, GTK_ORIENTATION_HORIZONTAL).natural
        let whenWidth = Self.size(when, GTK_ORIENTATION_HORIZONTAL).natural
        let stacked = Self.stacks(width: width, when: whenWidth)
        // Right to left, the title starts at the right and the time is at the left, as a box would have them.
        let mirrored = gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL
        func place(_ child: UnsafeMutablePointer<GtkWidget>, _ box: GtkAllocation) {
            var box = box
            if mirrored { box.x = width - box.x - box.width }
            gtk_widget_size_allocate(child, &box, -1)
        }
        let titleWidth: Int32
        if stacked {
            titleWidth = width
            let titleHeight = Self.size(title, GTK_ORIENTATION_VERTICAL, for: width).natural
            place(title, GtkAllocation(x: 0, y: 0, width: width, height: titleHeight))
            place(when, GtkAllocation(x: 0, y: titleHeight, width: min(width, whenWidth), height: max(0, height - titleHeight)))
        } else {
            titleWidth = max(0, width - whenWidth - Self.spacing)
            place(title, GtkAllocation(x: 0, y: 0, width: titleWidth, height: height))
            place(when, GtkAllocation(x: width - whenWidth, y: 0, width: whenWidth, height: height))
        }
        isStacked = stacked
        let cut = titleWidth < titleNatural
        if cut != isCut {
            isCut = cut
            // Not inside the allocation: right after it.
            lifetime.idle { [weak self] in
                self?.updateTooltip()
                return false
            }
        }
    }

    /// The whole title in the tooltip while it is cut; none when it shows whole.
    private func updateTooltip() {
        gtk_widget_set_tooltip_text(title, isCut ? text : nil)
    }

    /// The title's tooltip, if any.
    var tooltip: String? {
        gtk_widget_get_tooltip_text(title).map { String(cString: $0) }
    }
}
