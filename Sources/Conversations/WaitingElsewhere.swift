import Localization
import MessageStore

/// What waits outside the room on screen, for a narrow window that shows one
/// pane and hides the sidebar: the unread voice messages of the other rooms
/// and the invitations, counted on the back button and named in its screen
/// reader's name, and the invitations announced in a banner. Pure: the window
/// only shows what this says.
public struct WaitingElsewhere: Equatable, Sendable {
    /// Unread voice messages in joined rooms other than the one shown.
    public let unread: Int
    /// Invitations, newest first (as the store orders rooms).
    public let invitations: [StoredRoom]
    /// The invitations the banner announces: those not dismissed from it.
    public let announced: [StoredRoom]

    /// `rooms` as `MatrixTables.rooms()` gives them; `shownRoomID` the room
    /// on screen (nil for the recordings), whose own messages are in view;
    /// `dismissed` the invitations whose banner was closed (still counted).
    public init(rooms: [StoredRoom], shownRoomID: String?, dismissed: Set<String> = []) {
        unread = rooms.filter { $0.membership == .join && $0.id != shownRoomID }.map(\.unreadCount).reduce(0, +)
        invitations = rooms.filter { $0.membership == .invite }
        announced = invitations.filter { !dismissed.contains($0.id) }
    }

    /// The back button's badge: unread messages and invitations together.
    public var count: Int { unread + invitations.count }

    /// The badge's text, in the locale's digits; nil when nothing waits.
    public var badge: String? { count > 0 ? LocaleNumbers.integer(count) : nil }

    /// "Back to Rooms", then what waits there: "Back to Rooms, 3 unread, 1 invitation".
    public var backButtonName: String {
        var name = tr("Back to Rooms")
        if unread > 0 {
            name = tr("{name}, {detail}", ["name": name, "detail": trn("{count} unread", "{count} unread", unread)])
        }
        if !invitations.isEmpty {
            name = tr("{name}, {detail}", ["name": name, "detail": Self.invitationCount(invitations.count)])
        }
        return name
    }

    /// The banner's sentence: the invitation and who sent it, or how many
    /// there are; nil without one. Room and user names are plain text.
    public var bannerText: String? {
        guard let first = announced.first else { return nil }
        guard announced.count == 1 else { return Self.invitationCount(announced.count) }
        switch (first.name.flatMap { $0.isEmpty ? nil : ReceivedText.shown($0) }, first.inviter.map(ReceivedText.shown)) {
        // TRANSLATORS: a strip over a room in a narrow window; {room} is the room invited to, {name} who invited.
        case let (room?, inviter?): return tr("Invitation to “{room}” from {name}", ["room": room, "name": inviter])
        case let (room?, nil): return tr("Invitation to “{room}”", ["room": room])
        // A room without a name (a direct chat) is the person inviting.
        case let (nil, inviter?): return tr("Invitation from {name}", ["name": inviter])
        case (nil, nil): return tr("Invitation")
        }
    }

    /// The banner's button, as a screen reader says it.
    public var viewButtonName: String? {
        guard let first = announced.first else { return nil }
        return announced.count == 1
            ? tr("View invitation to {room}", ["room": first.displayName]) : tr("View invitations")
    }

    /// The room whose invitation the banner's button shows.
    public var invitationToView: String? { announced.first?.id }

    /// The content's second line: "Offline" while the server cannot be
    /// reached (the sidebar that also says so is hidden), else `note`.
    public static func subtitle(offline: Bool, note: String?) -> String? {
        offline ? tr("Offline") : note
    }

    static func invitationCount(_ count: Int) -> String {
        trn("{count} invitation", "{count} invitations", count)
    }
}
