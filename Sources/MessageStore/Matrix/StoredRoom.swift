import Foundation
import Localization

public enum RoomMembership: String, Sendable, Equatable {
    case join, invite, leave
}

/// A Matrix room as the store keeps it, with what the sidebar shows.
public struct StoredRoom: Sendable, Equatable, Identifiable {
    public var id: String
    /// The room's own name (`m.room.name`), when it has one.
    public var name: String?
    public var membership: RoomMembership
    /// The room's state has `m.room.encryption`: Hark sends nothing there.
    public var isEncrypted: Bool
    /// Who invited the account, for an invitation.
    public var inviter: String?
    public var lastActivity: Date?
    /// Who sent the room's latest message (a user id), and their name.
    public var lastSender: String?
    public var lastSenderName: String?
    /// Received voice messages not yet played or seen.
    public var unreadCount: Int
    /// The other members' names (not the account's own), for a room without
    /// a name: a direct chat is called by the other person's name.
    public var otherMemberNames: [String]
    /// Where `/messages` goes on back in time, and whether it reached the start.
    public var previousBatch: String?
    public var historyComplete: Bool

    public init(id: String, name: String? = nil, membership: RoomMembership, isEncrypted: Bool = false,
                inviter: String? = nil, lastActivity: Date? = nil, lastSender: String? = nil,
                lastSenderName: String? = nil, unreadCount: Int = 0, otherMemberNames: [String] = [],
                previousBatch: String? = nil, historyComplete: Bool = false) {
        self.id = id
        self.name = name
        self.membership = membership
        self.isEncrypted = isEncrypted
        self.inviter = inviter
        self.lastActivity = lastActivity
        self.lastSender = lastSender
        self.lastSenderName = lastSenderName
        self.unreadCount = unreadCount
        self.otherMemberNames = otherMemberNames
        self.previousBatch = previousBatch
        self.historyComplete = historyComplete
    }

    /// The name to show: its own, else the other members', else who
    /// invited; on one line and cut (`ReceivedText`).
    public var displayName: String { ReceivedText.shown(fullName) }

    /// The whole name, as the store keeps it (a tooltip's when `displayName` is cut).
    public var fullName: String {
        if let name, !name.isEmpty { return ReceivedText.cleaned(name) }
        if !otherMemberNames.isEmpty { return ReceivedText.cleaned(otherMemberNames.prefix(3).joined(separator: ", ")) }
        return inviter.map { ReceivedText.cleaned($0) } ?? tr("Empty room")
    }

    /// Whether `displayName` leaves part of the name out.
    public var isNameCut: Bool { displayName != fullName }
}

/// What a `/sync` says of a room; nil fields leave what is stored.
public struct RoomUpdate: Sendable, Equatable {
    public var id: String
    public var membership: RoomMembership
    public var name: String?
    public var isEncrypted: Bool?
    public var inviter: String?

    public init(id: String, membership: RoomMembership, name: String? = nil, isEncrypted: Bool? = nil,
                inviter: String? = nil) {
        self.id = id
        self.membership = membership
        self.name = name
        self.isEncrypted = isEncrypted
        self.inviter = inviter
    }
}
