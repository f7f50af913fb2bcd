import CGtk
import Conversations
import GtkSupport
import Localization

/// Decline All: asked first, then each invitation declined in turn while
/// the sidebar says how far it is; the window stays free meanwhile.
extension WindowConversations {
    func confirmDeclineAll(_ roomIDs: [String]) {
        guard !roomIDs.isEmpty, sidebar.declineProgress == nil else { return }
        MessageDialogs.confirmDeclineAll(over: window.window, count: roomIDs.count) { [weak self] in
            self?.declineAll(roomIDs)
        }
    }

    private func declineAll(_ roomIDs: [String]) {
        guard let session = account.session else { return openAccountDialog() }
        let total = roomIDs.count
        sidebar.showDeclineProgress((0, total))
        Task { [weak self] in
            let failures = await session.declineInvitations(roomIDs) { done in
                guard let self, self.window.lifetime.isAlive else { return }
                self.sidebar.showDeclineProgress((done, total))
            }
            guard let self, self.window.lifetime.isAlive else { return }
            self.sidebar.showDeclineProgress(nil)
            if let first = failures.first {
                self.window.toast(trn("{count} invitation could not be declined: {reason}",
                                      "{count} invitations could not be declined: {reason}", failures.count,
                                      ["reason": first.error.description]),
                                  seconds: MainWindow.problemSeconds)
            }
        }
    }
}
