import Conversations
import Foundation
import Localization
import MessageStore

/// Says each identity change not accepted yet that `said` has not said (`hark sync`), on standard error.
@MainActor
func sayIdentityChanges(_ store: MessageStore, said: inout Set<String>) {
    let own = store.matrix.matrixAccount()?.userID ?? ""
    for change in (try? store.matrix.identityChanges()) ?? [] where said.insert(change.userID + " " + (change.changedTo ?? "")).inserted {
        printFailure(IdentityChangeNotice.sentence(for: change, name: change.userID, ownUserID: own) + " "
            + tr("('hark accept-identity {user}' accepts it.)", ["user": change.userID]))
    }
}

/// `hark accept-identity USER_ID`: the new identity of someone (or of the
/// account itself) accepted: pinned, their devices trusted again.
@MainActor
func runAcceptIdentity(userID: String) -> Int32 {
    guard let store = openStore() else { return 1 }
    guard let change = try? store.matrix.pinnedIdentity(of: userID), change.changedTo != nil else {
        printFailure(tr("{user}’s identity has not changed: there is nothing to accept.", ["user": userID]))
        return 1
    }
    return runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        do throws(ConversationError) {
            try session.acceptIdentityChange(change)
            print(tr("Accepted {user}’s new identity.", ["user": userID]))
            return 0
        } catch {
            printFailure(error)
            return 1
        }
    }
}
