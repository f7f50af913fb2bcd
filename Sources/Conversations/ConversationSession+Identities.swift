import Foundation
import MessageStore

/// Identities pinned on first use (`IdentityPinning`): the user accepting a
/// change (`store.matrix.identityChanges` says which wait).
extension ConversationSession {
    /// The user accepted `change` (as it was shown to them): its new key is
    /// pinned, and the person's devices under it are trusted again as
    /// cross-signed. False when the identity changed again meanwhile.
    @discardableResult
    public func acceptIdentityChange(_ change: PinnedIdentity) throws(ConversationError) -> Bool {
        guard let key = change.changedTo else { return false }
        let accepted: Bool
        do { accepted = try store.matrix.acceptIdentityChange(of: change.userID, masterKey: key) } catch { throw .store(error) }
        encryption?.identityAccepted(change.userID)
        changes.send(.rooms)
        return accepted
    }
}
