import Foundation
import Matrix
import MessageStore

/// What one `/sync` (or a page of older messages) changed in the store.
public struct SyncOutcome: Sendable, Equatable {
    /// Messages that arrived, oldest first.
    public var received: [Message] = []
    /// Messages removed because their sender redacted them.
    public var removed: [String] = []
    /// Sends of Hark's own that the server's echo confirmed.
    public var confirmedSends: [String] = []
    public var roomsChanged = false
    /// The rows of encrypted messages that cannot be read (yet), new in this sync.
    public var held: [String] = []
    /// Rows of encrypted messages that cannot be read (yet) came or changed.
    public var undecryptedChanged = false
    /// Why each encrypted event refused in this sync will never be read, in words.
    public var refusals: [String] = []

    public var isEmpty: Bool {
        received.isEmpty && removed.isEmpty && confirmedSends.isEmpty && !roomsChanged && !undecryptedChanged
    }
}

/// Applies what the server said to the store: rooms and invitations, the
/// members' names, new audio messages (each event once), redactions, and the
/// echoes of Hark's own sends.
@MainActor
struct SyncApplier {
    let store: MessageStore
    let userID: String

    /// `since`: the token the sync started from (nil: the first sync of this
    /// account, whose messages are history, not news: not unread).
    func apply(_ response: SyncResponse, since: String?) throws(StoreError) -> SyncOutcome {
        let initial = since == nil
        var outcome = SyncOutcome()
        for (roomID, invited) in response.invited.sorted(by: { $0.key < $1.key }) {
            try store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .invite, name: invited.name,
                                            isEncrypted: invited.isEncrypted, inviter: invited.inviter(of: userID)))
            for event in invited.state { try applyMember(event, roomID: roomID) }
            outcome.roomsChanged = true
        }
        for roomID in response.left {
            try store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .leave))
            outcome.roomsChanged = true
        }
        for (roomID, joined) in response.joined.sorted(by: { $0.key < $1.key }) {
            try store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .join, name: joined.name,
                                            isEncrypted: joined.isEncrypted ? true : nil))
            outcome.roomsChanged = true
            for event in joined.state { try applyMember(event, roomID: roomID) }
            if let room = try store.matrix.room(roomID), room.previousBatch == nil, !room.historyComplete {
                // Where scrolling back fetches older messages from: before this first batch.
                if joined.limited, let previous = joined.previousBatch {
                    try store.matrix.setPreviousBatch(roomID: roomID, previous, complete: false)
                } else if initial || !joined.limited {
                    try store.matrix.setPreviousBatch(roomID: roomID, nil, complete: !joined.limited)
                }
            } else if joined.limited, let previous = joined.previousBatch, let since {
                // More came than the batch holds: what came between the last sync and it is fetched (GapFiller).
                try store.matrix.addGap(roomID: roomID, from: previous, to: since)
            }
            try applyTimeline(joined.timeline, roomID: roomID, unread: !initial, into: &outcome)
        }
        return outcome
    }

    /// Events of a room's timeline, oldest first: members, audio, redactions.
    func applyTimeline(_ events: [RoomEvent], roomID: String, unread: Bool,
                       into outcome: inout SyncOutcome) throws(StoreError) {
        for event in events {
            switch event.content {
            case .member:
                try applyMember(event, roomID: roomID)
            case .redaction(let redacts):
                if let id = try store.matrix.removeRedacted(eventID: redacts) { outcome.removed.append(id) }
            case .message(let content):
                guard content.isAudio, let eventID = event.eventID else { continue }
                // Hark's own send coming back: known by its transaction id (the
                // echo may come before the send's answer) or its event id.
                if let entry = try ownSend(of: event, content, roomID: roomID) {
                    if entry.state != .sent {
                        try store.matrix.markSent(entry.transactionID, eventID: eventID)
                        outcome.confirmedSends.append(entry.messageID)
                    }
                    try store.matrix.noteActivity(roomID: roomID, at: sentDate(event), sender: event.sender)
                    continue
                }
                // An event's row that waited for its key becomes its message (`receive`).
                if try store.matrix.hasEvent(eventID), try store.matrix.undecryptedMessage(eventID: eventID) == nil { continue }
                guard let incoming = IncomingAudioMapping.incoming(event, content, roomID: roomID,
                                                                   unread: unread && event.sender != userID),
                      let message = try store.matrix.receive(incoming) else { continue }
                if let file = content.encryptedFile, let described = try? JSONEncoder().encode(file) {
                    try store.matrix.setEncryptedMedia(of: message.id, file: described)
                }
                outcome.received.append(message)
            default:
                continue
            }
        }
    }

    /// The outbox row an event of the user's own is the send of: by its
    /// transaction id (which the server tells only the device that sent it)
    /// or by the upload it carries, which only that row made. A send whose
    /// answer was lost and whose device was then signed out comes back to the
    /// new device without its transaction id: it is known by its upload.
    private func ownSend(of event: RoomEvent, _ content: MessageContent,
                         roomID: String) throws(StoreError) -> OutboxEntry? {
        if let transactionID = event.transactionID, let entry = try store.matrix.outboxEntry(transactionID) { return entry }
        guard event.sender == userID, let url = content.url else { return nil }
        return try store.matrix.outboxEntry(contentURI: url, roomID: roomID)
    }

    private func applyMember(_ event: RoomEvent, roomID: String) throws(StoreError) {
        guard case .member(let membership, let displayName) = event.content, let userID = event.stateKey,
              !membership.isEmpty else { return }
        try store.matrix.setMember(roomID: roomID, userID: userID, displayName: displayName, membership: membership)
    }

    private func sentDate(_ event: RoomEvent) -> Date {
        event.originServerTimestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
    }
}
