import CGtk
import Conversations
import GtkSupport

/// A narrow window shows one pane: in a room, the sidebar with its
/// invitations and unread counts is hidden. The room's page says what waits
/// there (WaitingElsewhere): a count on the back button, in its name too,
/// and a banner for an invitation whose View goes to it (or that is dismissed).
extension WindowConversations {
    /// What waits outside the room on screen, from the rooms the sidebar shows.
    var waitingElsewhere: WaitingElsewhere {
        let shown: String? = if case .room(let id) = window.history?.scope { id } else { nil }
        return WaitingElsewhere(rooms: sidebar.rooms, shownRoomID: shown, dismissed: dismissedInvitations)
    }

    func showWhatWaits() {
        let waiting = waitingElsewhere
        layout.showWaiting(count: waiting.badge, name: waiting.backButtonName)
        // Side by side, the sidebar shows its invitations itself.
        let folded = layout.isFolded && layout.showsSidebar
        invitationBanner.show(folded ? waiting.bannerText : nil, buttonName: waiting.viewButtonName)
    }

    /// The banner's close button: these invitations wait in the sidebar, unannounced.
    func dismissInvitations() {
        dismissedInvitations.formUnion(waitingElsewhere.announced.map(\.id))
        showWhatWaits()
    }

    /// The banner's View: the sidebar, on the invitation (Accept, Decline).
    func viewInvitation() {
        guard let id = waitingElsewhere.invitationToView else { return }
        layout.showSidebar()
        sidebar.focusInvitation(id)
    }
}
