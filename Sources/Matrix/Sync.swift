import Foundation
import MatrixCrypto

/// One event of a room's state or timeline, with the content Hark reads
/// decoded by type; anything else is kept as `.other`.
public struct RoomEvent: Decodable, Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case message(MessageContent)
        case name(String)
        /// `m.room.encryption`: the room is end-to-end encrypted.
        case encryption(algorithm: String)
        /// `m.room.redaction` of another event.
        case redaction(redacts: String)
        /// `m.room.member`: someone's membership (join, invite, leave…) and display name.
        case member(membership: String, displayName: String?)
        /// `m.room.encrypted`: to be decrypted before it is read (see `decrypted(_:)`).
        case encrypted(EncryptedContent)
        case other
    }

    public var type: String
    public var eventID: String?
    public var sender: String
    public var originServerTimestamp: Int64?
    public var stateKey: String?
    /// The transaction id the event was sent with, which the server tells
    /// only the device that sent it (`unsigned.transaction_id`).
    public var transactionID: String?
    public var content: Content
    /// This event came encrypted and was decrypted here (its content is the plaintext's).
    public var wasEncrypted = false
    /// It was decrypted with a key from a device its sender has not cross-signed (or not known to be theirs).
    public var fromUnverifiedDevice = false

    enum CodingKeys: String, CodingKey {
        case type, sender, content, redacts, unsigned
        case eventID = "event_id"
        case originServerTimestamp = "origin_server_ts"
        case stateKey = "state_key"
    }

    private struct Unsigned: Decodable {
        var transactionID: String?
        enum CodingKeys: String, CodingKey { case transactionID = "transaction_id" }
    }
    private struct Name: Decodable { var name: String? }
    private struct Encryption: Decodable { var algorithm: String? }
    private struct Redaction: Decodable { var redacts: String? }
    private struct Member: Decodable {
        var membership: String?
        var displayname: String?
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        eventID = try? container.decodeIfPresent(String.self, forKey: .eventID)
        sender = (try? container.decodeIfPresent(String.self, forKey: .sender)) ?? ""
        originServerTimestamp = try? container.decodeIfPresent(Int64.self, forKey: .originServerTimestamp)
        stateKey = try? container.decodeIfPresent(String.self, forKey: .stateKey)
        transactionID = (try? container.decodeIfPresent(Unsigned.self, forKey: .unsigned))?.transactionID
        switch type {
        case "m.room.message":
            content = (try? container.decode(MessageContent.self, forKey: .content)).map(Content.message) ?? .other
        case "m.room.name":
            content = .name((try? container.decode(Name.self, forKey: .content))?.name ?? "")
        case "m.room.encryption":
            content = .encryption(algorithm: (try? container.decode(Encryption.self, forKey: .content))?.algorithm ?? "")
        case "m.room.redaction":
            // Room versions up to 10 put `redacts` beside the content, 11 and later inside it.
            let redacts = (try? container.decode(Redaction.self, forKey: .content))?.redacts
                ?? (try? container.decodeIfPresent(String.self, forKey: .redacts))
            content = redacts.map { .redaction(redacts: $0) } ?? .other
        case "m.room.member":
            let member = try? container.decode(Member.self, forKey: .content)
            content = .member(membership: member?.membership ?? "", displayName: member?.displayname)
        case "m.room.encrypted":
            content = .encrypted(EncryptedContent((try? container.decode(JSONValue.self, forKey: .content)) ?? .null))
        default:
            content = .other
        }
    }
}

/// The part of a `/sync` answer Hark uses: the token for the next call,
/// the joined rooms' new events and state, and the invitations.
public struct SyncResponse: Decodable, Sendable, Equatable {
    public var nextBatch: String
    public var joined: [String: JoinedRoom]
    public var invited: [String: InvitedRoom]
    public var left: [String]
    /// To-device messages, device-list changes and key counts, for the encryption.
    public var encryption: EncryptionSyncChanges

    public struct JoinedRoom: Decodable, Sendable, Equatable {
        public var state: [RoomEvent]
        public var timeline: [RoomEvent]
        /// The timeline has a gap before its first event (fetch it with `/messages` from `previousBatch`).
        public var limited: Bool
        public var previousBatch: String?

        enum CodingKeys: String, CodingKey { case state, timeline }
        private struct Events: Decodable {
            var events: [RoomEvent]?
            var limited: Bool?
            var prevBatch: String?
            enum CodingKeys: String, CodingKey {
                case events, limited
                case prevBatch = "prev_batch"
            }
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            state = (try container.decodeIfPresent(Events.self, forKey: .state))?.events ?? []
            let timelineEvents = try container.decodeIfPresent(Events.self, forKey: .timeline)
            timeline = timelineEvents?.events ?? []
            limited = timelineEvents?.limited ?? false
            previousBatch = timelineEvents?.prevBatch
        }

        /// The room's name, when this batch sets it (the latest one wins).
        public var name: String? {
            (state + timeline).reduce(nil) { name, event in
                if case .name(let new) = event.content, event.stateKey == "" { return new }
                return name
            }
        }

        /// Whether this batch shows the room is encrypted (an `m.room.encryption` state event).
        public var isEncrypted: Bool {
            (state + timeline).contains { event in
                if case .encryption = event.content, event.stateKey == "" { return true }
                return false
            }
        }

        public static func == (a: JoinedRoom, b: JoinedRoom) -> Bool {
            a.state == b.state && a.timeline == b.timeline && a.limited == b.limited
                && a.previousBatch == b.previousBatch
        }
    }

    /// A room the user is invited to, as the invitation's stripped state shows it.
    public struct InvitedRoom: Decodable, Sendable, Equatable {
        public var state: [RoomEvent]

        enum CodingKeys: String, CodingKey { case inviteState = "invite_state" }
        private struct Events: Decodable { var events: [RoomEvent]? }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            state = (try container.decodeIfPresent(Events.self, forKey: .inviteState))?.events ?? []
        }

        public var name: String? {
            state.reduce(nil) { name, event in
                if case .name(let new) = event.content { return new }
                return name
            }
        }

        public var isEncrypted: Bool {
            state.contains { if case .encryption = $0.content { return true } else { return false } }
        }

        /// Who sent the invitation (the sender of the user's own `invite` membership), given the user's id.
        public func inviter(of userID: String) -> String? {
            state.first { event in
                if case .member(let membership, _) = event.content, membership == "invite",
                   event.stateKey == userID { return true }
                return false
            }?.sender
        }
    }

    enum CodingKeys: String, CodingKey {
        case nextBatch = "next_batch"
        case rooms
        case toDevice = "to_device"
        case deviceLists = "device_lists"
        case oneTimeKeyCounts = "device_one_time_keys_count"
        case unusedFallbackKeyTypes = "device_unused_fallback_key_types"
    }
    private struct ToDevice: Decodable { var events: [Lenient<ToDeviceEvent>]? }
    private struct DeviceLists: Decodable {
        var changed: [String]?
        var left: [String]?
    }
    /// One element that may be malformed: skipped, not failing the whole answer.
    private struct Lenient<T: Decodable>: Decodable {
        var value: T?
        init(from decoder: Decoder) throws { value = try? T(from: decoder) }
    }
    private struct Rooms: Decodable {
        var join: [String: JoinedRoom]?
        var invite: [String: InvitedRoom]?
        var leave: [String: Ignored]?
    }
    private struct Ignored: Decodable {}

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nextBatch = try container.decode(String.self, forKey: .nextBatch)
        let rooms = try container.decodeIfPresent(Rooms.self, forKey: .rooms)
        joined = rooms?.join ?? [:]
        invited = rooms?.invite ?? [:]
        left = (rooms?.leave ?? [:]).keys.sorted()
        var encryption = EncryptionSyncChanges()
        encryption.toDevice = ((try? container.decodeIfPresent(ToDevice.self, forKey: .toDevice))??.events ?? []).compactMap(\.value)
        let lists = (try? container.decodeIfPresent(DeviceLists.self, forKey: .deviceLists)) ?? nil
        encryption.changedDeviceLists = lists?.changed ?? []
        encryption.leftDeviceLists = lists?.left ?? []
        encryption.oneTimeKeyCounts = (try? container.decodeIfPresent([String: Int].self, forKey: .oneTimeKeyCounts)) ?? nil
        encryption.unusedFallbackKeyTypes = (try? container.decodeIfPresent([String].self, forKey: .unusedFallbackKeyTypes)) ?? nil
        self.encryption = encryption
    }
}

/// The filter Hark syncs with: only what it shows (messages, redactions,
/// names, encryption, memberships), no presence, no account data, no
/// ephemeral events.
public enum SyncFilter {
    public static let stateTypes = ["m.room.name", "m.room.encryption", "m.room.member", "m.room.create"]
    public static let timelineTypes = ["m.room.message", "m.room.redaction", "m.room.encrypted"] + stateTypes

    /// The room event filter `/messages` takes: the same timeline types.
    public static func roomEventFilterJSON() -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["types": timelineTypes, "lazy_load_members": true],
                                               options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The filter as the JSON `/sync` takes inline in its `filter` parameter.
    public static func json(timelineLimit: Int = 50) -> String {
        let filter: [String: Any] = [
            "presence": ["types": [String]()],
            "account_data": ["types": [String]()],
            "room": [
                "state": ["types": stateTypes, "lazy_load_members": true],
                "timeline": ["types": timelineTypes, "limit": timelineLimit],
                "ephemeral": ["types": [String]()],
                "account_data": ["types": [String]()],
            ] as [String: Any],
        ]
        let data = try! JSONSerialization.data(withJSONObject: filter, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

/// A page of `/messages`: events newest first (going back), and where the
/// next page starts (nil: the room's start was reached).
public struct MessagesPage: Decodable, Sendable, Equatable {
    public var events: [RoomEvent]
    public var end: String?
    /// Member events of the senders on the page (lazy-loaded members).
    public var state: [RoomEvent]

    enum CodingKeys: String, CodingKey { case chunk, end, state }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        events = try container.decodeIfPresent([RoomEvent].self, forKey: .chunk) ?? []
        end = try? container.decodeIfPresent(String.self, forKey: .end)
        state = (try? container.decodeIfPresent([RoomEvent].self, forKey: .state)) ?? []
    }
}
