import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The sidebar's invitations: each with Accept and Decline while they are
/// few; past `invitationsShownSingly`, one "N invitations" row that shows
/// or hides them and declines them all (516 rows of invitations put the
/// rooms ~45,000 px down).
extension RoomSidebar {
    static let invitationsShownSingly = 3

    func invitationRow(_ room: StoredRoom) -> (widget: UnsafeMutablePointer<GtkWidget>, name: String) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let inviter = room.inviter.map { tr("Invitation from {name}", ["name": ReceivedText.shown($0)]) } ?? tr("Invitation")
        gtk_box_append(hark_box(box), Self.titleRow(room.displayName, subtitle: inviter, unread: 0, icon: "mail-unread-symbolic",
                                                     tooltip: room.isNameCut ? room.fullName : nil).widget)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let decline = gtk_button_new_with_mnemonic(tr("_Decline"))!
        let accept = gtk_button_new_with_mnemonic(tr("_Accept"))!
        gtk_widget_add_css_class(accept, "suggested-action")
        ButtonNames.name(accept, tr("Accept invitation to {room}", ["room": room.displayName]))
        ButtonNames.name(decline, tr("Decline invitation to {room}", ["room": room.displayName]))
        gtk_box_append(hark_box(buttons), decline)
        gtk_box_append(hark_box(buttons), accept)
        gtk_box_append(hark_box(box), buttons)
        let id = room.id
        Signal.connect(UnsafeMutableRawPointer(accept), "clicked") { [weak self] in self?.onAccept(id) }
        Signal.connect(UnsafeMutableRawPointer(decline), "clicked") { [weak self] in self?.onDecline(id) }
        return (box, tr("{name}, {detail}", ["name": room.displayName, "detail": inviter]))
    }

    /// "6 invitations", Show (or Hide) and Decline All…; while Decline All
    /// works, how far it is.
    func invitationGroupRow(_ invitations: [StoredRoom]) -> (widget: UnsafeMutablePointer<GtkWidget>, name: String) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        let title = trn("{count} invitation", "{count} invitations", invitations.count)
        gtk_box_append(hark_box(box), Self.titleRow(title, subtitle: nil, unread: 0, icon: "mail-unread-symbolic").widget)
        let progress = gtk_label_new(nil)!
        gtk_label_set_xalign(hark_label(progress), 0)
        gtk_widget_add_css_class(progress, "caption")
        gtk_widget_add_css_class(progress, "dim-label")
        gtk_box_append(hark_box(box), progress)
        declineProgressLabel = progress
        showDeclineProgress(declineProgress)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let declineAll = gtk_button_new_with_mnemonic(tr("Decline _All…"))!
        ButtonNames.name(declineAll, tr("Decline All Invitations"))
        gtk_widget_set_sensitive(declineAll, declineProgress == nil ? 1 : 0)
        // TRANSLATORS: shows (or hides) the invitations a sidebar row counts.
        let toggle = gtk_button_new_with_mnemonic(invitationsExpanded ? tr("_Hide") : tr("_Show"))!
        ButtonNames.name(toggle, invitationsExpanded ? tr("Hide Invitations") : tr("Show Invitations"))
        gtk_box_append(hark_box(buttons), declineAll)
        gtk_box_append(hark_box(buttons), toggle)
        gtk_box_append(hark_box(box), buttons)
        let ids = invitations.map(\.id)
        Signal.connect(UnsafeMutableRawPointer(declineAll), "clicked") { [weak self] in self?.onDeclineAll(ids) }
        Signal.connect(UnsafeMutableRawPointer(toggle), "clicked") { [weak self] in
            guard let self else { return }
            self.invitationsExpanded.toggle()
            self.reload(rooms: self.rooms)
        }
        return (box, title)
    }

    /// Decline All answered `done` of `total` (nil: it is over); the sidebar's rows stay.
    func showDeclineProgress(_ progress: (done: Int, total: Int)?) {
        declineProgress = progress
        if let declineProgressLabel {
            gtk_label_set_text(hark_label(declineProgressLabel), declineProgressText ?? "")
            gtk_widget_set_visible(declineProgressLabel, progress == nil ? 0 : 1)
        }
    }

    private var declineProgressText: String? {
        declineProgress.map { tr("Declining {done} of {total}…", ["done": LocaleNumbers.integer($0.done),
                                                                   "total": LocaleNumbers.integer($0.total)]) }
    }
}
