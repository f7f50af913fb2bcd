import CAdwaita
import CGLib
import CGtk
import Conversations
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// A strip across the top of an encrypted room while one of its members'
/// identity changed and the user has not accepted it ("Bob’s identity has
/// changed…"), with Accept, which pins the new identity. The name comes
/// from the network: set as plain text, never markup.
@MainActor
final class IdentityBanner {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    private let strip: BannerStrip
    /// The change shown, while one is.
    private(set) var change: PinnedIdentity?
    var onAccept: @MainActor (PinnedIdentity) -> Void = { _ in }

    init() {
        strip = BannerStrip(icon: "dialog-warning-symbolic", button: tr("_Accept"))
        (widget, label, button) = (strip.revealer, strip.label, strip.button)
        show(nil, name: "", ownUserID: "")
        Signal.connect(UnsafeMutableRawPointer(button), "clicked") { [weak self] in
            if let change = self?.change { self?.onAccept(change) }
        }
    }

    /// Shows `change` of the member called `name` (nil hides the banner).
    func show(_ change: PinnedIdentity?, name: String, ownUserID: String) {
        self.change = change
        strip.show(change.map { IdentityChangeNotice.sentence(for: $0, name: name, ownUserID: ownUserID) },
                   buttonName: change?.userID == ownUserID ? tr("Accept your new identity")
                       : tr("Accept {name}’s new identity", ["name": name]))
    }
}

extension WindowConversations {
    /// The shown room's first identity change not accepted yet, on the banner.
    func showIdentityChange() {
        let store = account.store
        guard let room = shownRoom, room.isEncrypted, account.isSignedIn,
              let change = (try? store.matrix.identityChanges(inRoom: room.id))?.first
        else { return identityBanner.show(nil, name: "", ownUserID: "") }
        let name = ReceivedText.shown(store.matrix.memberName(roomID: room.id, userID: change.userID) ?? change.userID)
        identityBanner.show(change, name: name, ownUserID: store.matrix.matrixAccount()?.userID ?? "")
    }

    func acceptIdentityChange(_ change: PinnedIdentity) {
        guard let session = account.session else { return openAccountDialog() }
        do throws(ConversationError) { try session.acceptIdentityChange(change) } catch {
            window.toast(error.description, seconds: MainWindow.problemSeconds)
        }
        showIdentityChange()
    }
}
