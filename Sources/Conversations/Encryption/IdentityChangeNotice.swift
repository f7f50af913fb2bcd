import Localization
import MessageStore

/// What Hark says of an identity change not accepted yet (the window's room
/// and `hark sync` alike).
public enum IdentityChangeNotice {
    /// `name`: how the person is called where it is said. `ownUserID`: the
    /// account's, whose own change means this device lost its verification.
    public static func sentence(for change: PinnedIdentity, name: String, ownUserID: String) -> String {
        if change.userID == ownUserID {
            return tr("Your identity was reset on another of your devices, so this device is no longer verified. "
                + "Messages from your other devices are marked until you accept it; the new recovery key verifies this device.")
        }
        return tr("{name}’s identity has changed. Messages from their devices are marked until you accept it.", ["name": name])
    }
}
