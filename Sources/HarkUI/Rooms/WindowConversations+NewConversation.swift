import CGtk
import MessageStore

extension WindowConversations {
    /// The direct chat New Conversation found or made, opened; one the
    /// person invited the user to is shown as the invitation it is (Accept
    /// and Decline beside it).
    func openConversation(_ roomID: String) {
        switch (try? account.store.matrix.room(roomID))??.membership {
        case .join:
            open(roomID: roomID)
        case .invite:
            layout.showSidebar()
            sidebar.focusInvitation(roomID)
        case .leave, nil:
            break
        }
    }
}
