import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The sidebar: "Recordings" (the local history), then invitations (with
/// Accept and Decline; past a few, one "N invitations" row that shows them
/// and declines them all), then the joined rooms by name, newest activity
/// first, each with its unread voice messages counted and who sent the
/// latest. It only shows what the store says (`reload`); choosing is the
/// window's work.
@MainActor
final class RoomSidebar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let list: UnsafeMutablePointer<GtkWidget>
    /// What is chosen: the recordings, or a room.
    private(set) var selected: HistoryScope = .recordings
    /// The rooms shown, in order (invitations first).
    private(set) var rooms: [StoredRoom] = []
    private var rows: [(row: UnsafeMutablePointer<GtkWidget>, scope: HistoryScope?)] = []
    /// Each invitation's row, by its room's id.
    var invitationRows: [String: UnsafeMutablePointer<GtkWidget>] = [:]
    private var rebuilding = false
    /// Whether the "N invitations" row shows its invitations.
    var invitationsExpanded = false
    /// While Decline All works: how many of how many are answered.
    var declineProgress: (done: Int, total: Int)?
    /// The "N invitations" row's line saying how far Decline All is.
    var declineProgressLabel: UnsafeMutablePointer<GtkWidget>?
    /// The user chose `scope` (a click, the keyboard).
    var onSelect: @MainActor (HistoryScope) -> Void = { _ in }
    /// A row was activated (clicked even if already chosen): a folded window shows the room.
    var onActivate: @MainActor () -> Void = {}
    var onAccept: @MainActor (String) -> Void = { _ in }
    var onDecline: @MainActor (String) -> Void = { _ in }
    /// Decline All, with the invitations' room ids.
    var onDeclineAll: @MainActor ([String]) -> Void = { _ in }
    static var recordingsTitle: String { tr("Recordings") }

    init() {
        list = gtk_list_box_new()!
        gtk_widget_add_css_class(list, "navigation-sidebar")
        gtk_list_box_set_selection_mode(OpaquePointer(list), GTK_SELECTION_SINGLE)
        hark_accessible_set_label(UnsafeMutableRawPointer(list), tr("Rooms"))
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(scroller), list)
        gtk_widget_set_vexpand(scroller, 1)
        widget = scroller
        Signal.connectPointer(UnsafeMutableRawPointer(list), "row-selected") { [weak self] row in
            guard let self, !self.rebuilding, let row,
                  let scope = self.rows.first(where: { UnsafeMutableRawPointer($0.row) == row })?.scope else { return }
            guard scope != self.selected else { return }
            self.selected = scope
            self.onSelect(scope)
        }
        // A click selects, then activates; Enter or a screen reader's action only activates.
        Signal.connectPointer(UnsafeMutableRawPointer(list), "row-activated") { [weak self] row in
            guard let self, let row,
                  let scope = self.rows.first(where: { UnsafeMutableRawPointer($0.row) == row })?.scope else { return }
            if scope != self.selected {
                self.select(scope)
                self.onSelect(scope)
            }
            self.onActivate()
        }
        reload(rooms: [])
    }

    /// Shows `rooms` (as `MatrixTables.rooms()` orders them); the chosen
    /// row stays chosen, or "Recordings" when its room is gone.
    /// Whether encrypted rooms are open to Hark (its encryption is set up): their rows say so when not.
    var canEncrypt = false

    func reload(rooms: [StoredRoom]) {
        rebuilding = true
        defer { rebuilding = false }
        self.rooms = rooms
        for (row, _) in rows { gtk_list_box_remove(OpaquePointer(list), row) }
        rows = []
        invitationRows = [:]
        declineProgressLabel = nil
        add(Self.titleRow(Self.recordingsTitle, subtitle: tr("On this computer"), unread: 0,
                          icon: "audio-input-microphone-symbolic"), scope: .recordings)
        let invitations = rooms.filter { $0.membership == .invite }
        let grouped = invitations.count > Self.invitationsShownSingly
        if grouped { add(invitationGroupRow(invitations), scope: nil) } else { invitationsExpanded = false }
        for room in rooms {
            switch room.membership {
            case .invite:
                guard !grouped || invitationsExpanded else { continue }
                add(invitationRow(room), scope: nil)
                invitationRows[room.id] = rows.last?.row
            case .join: add(Self.roomRow(room, canEncrypt: canEncrypt), scope: .room(room.id))
            case .leave: continue
            }
        }
        if case .room(let id) = selected, !rooms.contains(where: { $0.id == id && $0.membership == .join }) {
            selected = .recordings
            onSelect(.recordings)
        }
        if let chosen = rows.first(where: { $0.scope == selected }) {
            gtk_list_box_select_row(OpaquePointer(list), UnsafeMutableRawPointer(chosen.row).assumingMemoryBound(to: GtkListBoxRow.self))
        }
    }

    /// Chooses `scope` (the window opening a room from a notification).
    func select(_ scope: HistoryScope) {
        guard let chosen = rows.first(where: { $0.scope == scope }) else { return }
        selected = scope
        rebuilding = true
        gtk_list_box_select_row(OpaquePointer(list), UnsafeMutableRawPointer(chosen.row).assumingMemoryBound(to: GtkListBoxRow.self))
        rebuilding = false
    }

    /// Moves the focus to an invitation's row (its Accept and Decline are
    /// next), showing the grouped invitations first.
    func focusInvitation(_ roomID: String) {
        if invitationRows[roomID] == nil, !invitationsExpanded {
            invitationsExpanded = true
            reload(rooms: rooms)
        }
        if let row = invitationRows[roomID] { gtk_widget_grab_focus(row) }
    }

    func add(_ content: (widget: UnsafeMutablePointer<GtkWidget>, name: String), scope: HistoryScope?) {
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkListBoxRow.self), content.widget)
        hark_accessible_set_label(UnsafeMutableRawPointer(row), content.name)
        if scope == nil {
            gtk_list_box_row_set_selectable(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkListBoxRow.self), 0)
            gtk_list_box_row_set_activatable(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkListBoxRow.self), 0)
        }
        gtk_list_box_append(OpaquePointer(list), row)
        rows.append((row, scope))
    }

    static func roomRow(_ room: StoredRoom, canEncrypt: Bool) -> (widget: UnsafeMutablePointer<GtkWidget>, name: String) {
        var subtitle: String?
        if room.isEncrypted, !canEncrypt {
            subtitle = WindowConversations.encryptedNote(canEncrypt: false)
        } else if let sender = room.lastSenderName {
            subtitle = tr("Latest from {name}", ["name": sender])
        }
        // The screen reader's name: the room, then what the row says of it, as a list.
        var name = room.displayName
        if room.unreadCount > 0 {
            name = tr("{name}, {detail}", ["name": name, "detail": trn("{count} unread", "{count} unread", room.unreadCount)])
        }
        if let subtitle { name = tr("{name}, {detail}", ["name": name, "detail": subtitle]) }
        return (titleRow(room.displayName, subtitle: subtitle, unread: room.unreadCount,
                         icon: room.isEncrypted ? "channel-secure-symbolic" : "system-users-symbolic",
                         tooltip: room.isNameCut ? room.fullName : nil).widget, name)
    }

    /// `tooltip`: the whole name, when `title` is cut.
    static func titleRow(_ title: String, subtitle: String?, unread: Int, icon: String,
                         tooltip: String? = nil) -> (widget: UnsafeMutablePointer<GtkWidget>, name: String) {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(box, 4) }
        gtk_box_append(hark_box(box), gtk_image_new_from_icon_name(icon))
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_hexpand(texts, 1)
        let titleLabel = gtk_label_new(title)!
        if let tooltip { gtk_widget_set_tooltip_text(titleLabel, tooltip) }
        gtk_label_set_xalign(hark_label(titleLabel), 0)
        gtk_label_set_ellipsize(hark_label(titleLabel), PANGO_ELLIPSIZE_END)
        gtk_box_append(hark_box(texts), titleLabel)
        if let subtitle {
            let subtitleLabel = gtk_label_new(subtitle)!
            gtk_label_set_xalign(hark_label(subtitleLabel), 0)
            gtk_label_set_ellipsize(hark_label(subtitleLabel), PANGO_ELLIPSIZE_END)
            gtk_widget_add_css_class(subtitleLabel, "caption")
            gtk_widget_add_css_class(subtitleLabel, "dim-label")
            gtk_box_append(hark_box(texts), subtitleLabel)
        }
        gtk_box_append(hark_box(box), texts)
        if unread > 0 {
            let badge = gtk_label_new(LocaleNumbers.integer(unread))!
            gtk_widget_add_css_class(badge, "hark-unread")
            gtk_widget_add_css_class(badge, "numeric")
            gtk_widget_set_valign(badge, GTK_ALIGN_CENTER)
            gtk_box_append(hark_box(box), badge)
        }
        return (box, title)
    }
}
