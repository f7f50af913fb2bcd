import Foundation

/// The rooms of the signed-in account, their members' names and activity.
extension MatrixTables {
    /// Joined rooms and invitations, invitations first, then newest activity first.
    public func rooms() throws(StoreError) -> [StoredRoom] {
        try rooms(where: "r.membership IN ('join', 'invite')", [])
    }

    public func room(_ id: String) throws(StoreError) -> StoredRoom? {
        try rooms(where: "r.id = ?", [.text(id)]).first
    }

    private func rooms(where clause: String, _ values: [SQLValue]) throws(StoreError) -> [StoredRoom] {
        let me = matrixAccount()?.userID ?? ""
        var found: [StoredRoom] = []
        try store.run("""
            SELECT r.id, r.name, r.membership, r.encrypted, r.inviter, r.last_activity, r.last_sender,
                   (SELECT display_name FROM room_members WHERE room_id = r.id AND user_id = r.last_sender),
                   (SELECT count(*) FROM messages WHERE room_id = r.id AND unread = 1 AND state != 'deleted'),
                   r.previous_batch, r.history_complete
            FROM rooms r WHERE \(clause)
            ORDER BY r.membership = 'invite' DESC, r.last_activity DESC, r.id
            """, values) { row in
            found.append(StoredRoom(
                id: row.text(0) ?? "", name: row.text(1), membership: RoomMembership(rawValue: row.text(2) ?? "") ?? .leave,
                isEncrypted: row.integer(3) != 0, inviter: row.text(4),
                lastActivity: row.real(5) > 0 ? Date(timeIntervalSince1970: row.real(5)) : nil,
                lastSender: row.text(6), lastSenderName: (row.text(7) ?? row.text(6)).map(ReceivedText.shown), unreadCount: Int(row.integer(8)),
                otherMemberNames: [], previousBatch: row.text(9), historyComplete: row.integer(10) != 0))
        }
        for index in found.indices {
            try store.run("""
                SELECT coalesce(display_name, user_id) FROM room_members
                WHERE room_id = ? AND user_id != ? AND membership IN ('join', 'invite') ORDER BY user_id
                """, [.text(found[index].id), .text(me)]) { found[index].otherMemberNames.append($0.text(0) ?? "") }
        }
        return found
    }

    /// Records what a sync said of a room: its membership always, the rest
    /// when given (its name and inviter on one line, cut: `ReceivedText`).
    public func updateRoom(_ update: RoomUpdate) throws(StoreError) {
        try store.checkWritable()
        var update = update
        update.name = update.name.map { ReceivedText.cleaned($0) }
        update.inviter = update.inviter.map { ReceivedText.cleaned($0) }
        try store.run("""
            INSERT INTO rooms (id, name, membership, encrypted, inviter) VALUES (?, ?, ?, coalesce(?, 0), ?)
            ON CONFLICT (id) DO UPDATE SET membership = excluded.membership,
                name = coalesce(?, name), encrypted = max(encrypted, coalesce(?, 0)), inviter = coalesce(?, inviter)
            """, [.text(update.id), .optionalText(update.name), .text(update.membership.rawValue),
                  update.isEncrypted.map { .integer($0 ? 1 : 0) } ?? .null, .optionalText(update.inviter),
                  .optionalText(update.name), update.isEncrypted.map { .integer($0 ? 1 : 0) } ?? .null,
                  .optionalText(update.inviter)])
    }

    /// A member's membership and display name in a room (the room must be
    /// known); the name on one line, cut (`ReceivedText`).
    public func setMember(roomID: String, userID: String, displayName: String?, membership: String) throws(StoreError) {
        try store.checkWritable()
        let displayName = displayName.map { ReceivedText.cleaned($0) }
        try store.run("""
            INSERT INTO room_members (room_id, user_id, display_name, membership) VALUES (?, ?, ?, ?)
            ON CONFLICT (room_id, user_id) DO UPDATE SET display_name = coalesce(excluded.display_name, display_name),
                membership = excluded.membership
            """, [.text(roomID), .text(userID), .optionalText(displayName), .text(membership)])
    }

    /// A member's display name in a room, or nil.
    public func memberName(roomID: String, userID: String) -> String? {
        var name: String?
        try? store.run("SELECT display_name FROM room_members WHERE room_id = ? AND user_id = ?",
                 [.text(roomID), .text(userID)]) { name = $0.text(0) }
        return name
    }

    /// Who sent a received message, by their name in its room (else their user id); nil for the user's own.
    public func senderName(of message: Message) -> String? {
        guard message.origin == .received, let sender = message.sender else { return nil }
        return ReceivedText.shown(message.roomID.flatMap { memberName(roomID: $0, userID: sender) } ?? sender)
    }

    /// A message in the room at `date` by `sender`: the room's latest activity, if newer.
    public func noteActivity(roomID: String, at date: Date, sender: String?) throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE rooms SET last_activity = ?, last_sender = ? WHERE id = ? AND last_activity <= ?",
                [.real(date.timeIntervalSince1970), .optionalText(sender), .text(roomID), .real(date.timeIntervalSince1970)])
    }

    /// Where fetching older messages of the room goes on from (`/messages`'s `from`), and whether it reached the start.
    public func setPreviousBatch(roomID: String, _ token: String?, complete: Bool) throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE rooms SET previous_batch = ?, history_complete = ? WHERE id = ?",
                [.optionalText(token), .integer(complete ? 1 : 0), .text(roomID)])
    }

    /// Marks a received message heard; its event id, for a read receipt, when it was unread.
    @discardableResult
    public func markRead(_ id: String) throws(StoreError) -> String? {
        let message = try store.message(id)
        guard message.unread else { return nil }
        try store.checkWritable()
        try store.run("UPDATE messages SET unread = 0 WHERE id = ?", [.text(id)])
        return message.eventID
    }

    /// Marks every message of a room seen; the newest such event's id (for a read receipt), if any was unread.
    @discardableResult
    public func markRoomRead(_ roomID: String) throws(StoreError) -> String? {
        var newest: String?
        try store.run("""
            SELECT event_id FROM messages WHERE room_id = ? AND unread = 1 AND event_id IS NOT NULL
            ORDER BY created_at DESC LIMIT 1
            """, [.text(roomID)]) { newest = $0.text(0) }
        guard newest != nil else { return nil }
        try store.checkWritable()
        try store.run("UPDATE messages SET unread = 0 WHERE room_id = ? AND unread = 1", [.text(roomID)])
        return newest
    }
}
