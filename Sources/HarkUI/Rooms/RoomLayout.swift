import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization

/// The window's two panes in an AdwLeaflet: the room sidebar (its own header
/// bar) beside the content (the history and the composer). A narrow window
/// folds the leaflet to one pane at a time, and the content's header bar
/// gets a back button to the sidebar. Signed out, the sidebar is hidden and
/// the window is the history alone, as before.
@MainActor
final class RoomLayout {
    let leaflet: UnsafeMutablePointer<GtkWidget>
    /// The sidebar's pane: its header bar above `sidebarContent`.
    let sidebarPane: UnsafeMutablePointer<GtkWidget>
    let sidebarHeader: UnsafeMutablePointer<GtkWidget>
    private let separator: UnsafeMutablePointer<GtkWidget>
    private let sidebarSlot: UnsafeMutablePointer<GtkWidget>
    let content: UnsafeMutablePointer<GtkWidget>
    let contentHeader: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    /// The count of what waits elsewhere, beside the back button's arrow.
    let backBadge: UnsafeMutablePointer<GtkWidget>
    /// The content's title: the room's name (and what is special about it).
    let title: UnsafeMutablePointer<GtkWidget>
    static let sidebarWidth: Int32 = 260

    init(content: UnsafeMutablePointer<GtkWidget>, header: UnsafeMutablePointer<GtkWidget>) {
        self.content = content
        contentHeader = header
        leaflet = adw_leaflet_new()!
        adw_leaflet_set_can_navigate_back(OpaquePointer(leaflet), 1)
        adw_leaflet_set_fold_threshold_policy(OpaquePointer(leaflet), ADW_FOLD_THRESHOLD_POLICY_MINIMUM)

        sidebarPane = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_size_request(sidebarPane, Self.sidebarWidth, -1)
        gtk_widget_add_css_class(sidebarPane, "hark-sidebar")
        sidebarHeader = adw_header_bar_new()!
        let sidebarTitle = adw_window_title_new("Hark", nil)!
        adw_header_bar_set_title_widget(OpaquePointer(sidebarHeader), sidebarTitle)
        gtk_box_append(hark_box(sidebarPane), sidebarHeader)
        sidebarSlot = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_vexpand(sidebarSlot, 1)
        gtk_box_append(hark_box(sidebarPane), sidebarSlot)
        separator = gtk_separator_new(GTK_ORIENTATION_VERTICAL)!

        let sidebarPage = adw_leaflet_append(OpaquePointer(leaflet), sidebarPane)
        adw_leaflet_page_set_name(sidebarPage, "sidebar")
        let separatorPage = adw_leaflet_append(OpaquePointer(leaflet), separator)
        adw_leaflet_page_set_navigatable(separatorPage, 0)
        let contentPage = adw_leaflet_append(OpaquePointer(leaflet), content)
        adw_leaflet_page_set_name(contentPage, "content")
        gtk_widget_set_hexpand(content, 1)

        // The arrow, and beside it how many messages and invitations wait in the sidebar.
        backButton = gtk_button_new()!
        let backContent = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_box_append(hark_box(backContent), gtk_image_new_from_icon_name("go-previous-symbolic"))
        backBadge = gtk_label_new(nil)!
        gtk_widget_add_css_class(backBadge, "hark-unread")
        gtk_widget_add_css_class(backBadge, "numeric")
        gtk_widget_set_valign(backBadge, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(backBadge, 0)
        gtk_box_append(hark_box(backContent), backBadge)
        gtk_button_set_child(hark_button(backButton), backContent)
        gtk_widget_add_css_class(backButton, "flat")  // as the header's icon buttons are
        adw_header_bar_pack_start(OpaquePointer(header), backButton)
        title = adw_window_title_new("Hark", nil)!
        adw_header_bar_set_title_widget(OpaquePointer(header), title)

        Signal.connect(UnsafeMutableRawPointer(backButton), "clicked") { [weak self] in self?.showSidebar() }
        Signal.connectPointer(UnsafeMutableRawPointer(leaflet), "notify::folded") { [weak self] _ in
            self?.update()
            self?.onFoldChange()
        }
        showsSidebar = false
        showWaiting(count: nil, name: tr("Back to Rooms"))
    }

    /// What waits in the hidden sidebar: the badge's text (nil: none) and
    /// the back button's name, which says it too.
    func showWaiting(count: String?, name: String) {
        gtk_label_set_text(hark_label(backBadge), count ?? "")
        gtk_widget_set_visible(backBadge, count == nil ? 0 : 1)
        gtk_widget_set_tooltip_text(backButton, name)
        ButtonNames.name(backButton, name)
    }

    /// The folded state changed (the window was made narrower or wider).
    var onFoldChange: @MainActor () -> Void = {}

    /// The sidebar's widget goes here.
    func setSidebar(_ widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(hark_box(sidebarSlot), widget)
    }

    /// Whether the sidebar is part of the window (signed in).
    var showsSidebar = true {
        didSet {
            gtk_widget_set_visible(sidebarPane, showsSidebar ? 1 : 0)
            gtk_widget_set_visible(separator, showsSidebar ? 1 : 0)
            if !showsSidebar { showContent() }
            update()
        }
    }

    /// One pane at a time (a narrow window).
    var isFolded: Bool { adw_leaflet_get_folded(OpaquePointer(leaflet)) != 0 }

    /// Whether the sidebar is what a folded window shows.
    var isShowingSidebar: Bool { showsSidebar && (!isFolded || visibleChild == sidebarPane) }

    /// Folded on the sidebar: no room's history is on screen.
    var isShowingSidebarOnly: Bool { showsSidebar && isFolded && visibleChild == sidebarPane }

    var visibleChild: UnsafeMutablePointer<GtkWidget>? { adw_leaflet_get_visible_child(OpaquePointer(leaflet)) }

    func showContent() {
        adw_leaflet_set_visible_child(OpaquePointer(leaflet), content)
    }

    func showSidebar() {
        guard showsSidebar else { return }
        adw_leaflet_set_visible_child(OpaquePointer(leaflet), sidebarPane)
    }

    /// Folded: the back button shows, and each header bar has the window's
    /// buttons; side by side only the content's, at the window's edge.
    private func update() {
        let folded = isFolded
        gtk_widget_set_visible(backButton, folded && showsSidebar ? 1 : 0)
        adw_header_bar_set_show_end_title_buttons(OpaquePointer(sidebarHeader), folded ? 1 : 0)
        adw_header_bar_set_show_start_title_buttons(OpaquePointer(contentHeader), folded || !showsSidebar ? 1 : 0)
    }

    /// The content's title and its second line.
    func setTitle(_ text: String, subtitle: String?) {
        adw_window_title_set_title(OpaquePointer(title), text)
        adw_window_title_set_subtitle(OpaquePointer(title), subtitle)
    }
}
