import Foundation

/// A user's cross-signing identity as Hark pinned it on first use: the
/// master key it trusts for them, and another the server has published
/// since, while the user has not accepted it.
public struct PinnedIdentity: Sendable, Equatable {
    public var userID: String
    /// The master key trusted for the user (the first seen, or the last accepted).
    public var masterKey: String
    /// The master key the server now gives for them, when it is another (not accepted yet).
    public var changedTo: String?
    /// When the change was first seen.
    public var changedAt: Date?

    public init(userID: String, masterKey: String, changedTo: String? = nil, changedAt: Date? = nil) {
        self.userID = userID
        self.masterKey = masterKey
        self.changedTo = changedTo
        self.changedAt = changedAt
    }
}

/// Pinned identities (migration 16): kept by the encryption, read by the
/// window and the command line to say whose identity changed.
extension MatrixTables {
    public func pinnedIdentity(of userID: String) throws(StoreError) -> PinnedIdentity? {
        try pins(where: "user_id = ?", [.text(userID)]).first
    }

    /// Pins `masterKey` for `userID` unless a key is pinned for them already.
    public func pinIdentity(of userID: String, masterKey: String, at date: Date = Date()) throws(StoreError) {
        try store.checkWritable()
        try store.run("INSERT OR IGNORE INTO identity_pins (user_id, master_key, pinned_at) VALUES (?, ?, ?)",
                      [.text(userID), .text(masterKey), .real(date.timeIntervalSince1970)])
    }

    /// Pins `masterKey` for `userID` in place of any other, a change waiting
    /// forgotten: the account's own identity, which the user made or unlocked here.
    public func repinIdentity(of userID: String, masterKey: String, at date: Date = Date()) throws(StoreError) {
        try store.checkWritable()
        try store.run("INSERT OR REPLACE INTO identity_pins (user_id, master_key, pinned_at) VALUES (?, ?, ?)",
                      [.text(userID), .text(masterKey), .real(date.timeIntervalSince1970)])
    }

    /// Notes that the server gives `masterKey` (another than the pinned one)
    /// for `userID`, or nil: it gives the pinned one again. A change already
    /// noted to the same key keeps its time.
    public func setIdentityChange(of userID: String, to masterKey: String?, at date: Date = Date()) throws(StoreError) {
        try store.checkWritable()
        try store.run("""
            UPDATE identity_pins SET changed_to = ?1,
                changed_at = CASE WHEN ?1 IS NULL THEN NULL WHEN changed_to IS ?1 THEN changed_at ELSE ?2 END
            WHERE user_id = ?3
            """, [.optionalText(masterKey), .real(date.timeIntervalSince1970), .text(userID)])
    }

    /// The user accepted `userID`'s new identity (`masterKey`, as it was
    /// shown to them): it is pinned in place of the old. False when that is
    /// no longer the change waiting (it changed again meanwhile).
    @discardableResult
    public func acceptIdentityChange(of userID: String, masterKey: String, at date: Date = Date()) throws(StoreError) -> Bool {
        try store.checkWritable()
        try store.run("""
            UPDATE identity_pins SET master_key = changed_to, pinned_at = ?, changed_to = NULL, changed_at = NULL
            WHERE user_id = ? AND changed_to = ?
            """, [.real(date.timeIntervalSince1970), .text(userID), .text(masterKey)])
        return store.database.changes > 0
    }

    /// Every identity change not accepted yet, oldest first.
    public func identityChanges() throws(StoreError) -> [PinnedIdentity] {
        try pins(where: "changed_to IS NOT NULL", [])
    }

    /// The changes not accepted yet of the room's joined and invited members, oldest first.
    public func identityChanges(inRoom roomID: String) throws(StoreError) -> [PinnedIdentity] {
        try pins(where: """
            changed_to IS NOT NULL AND user_id IN (SELECT user_id FROM room_members
                WHERE room_id = ? AND membership IN ('join', 'invite'))
            """, [.text(roomID)])
    }

    private func pins(where clause: String, _ values: [SQLValue]) throws(StoreError) -> [PinnedIdentity] {
        var found: [PinnedIdentity] = []
        try store.run("""
            SELECT user_id, master_key, changed_to, changed_at FROM identity_pins WHERE \(clause)
            ORDER BY changed_at, user_id
            """, values) { row in
            found.append(PinnedIdentity(userID: row.text(0) ?? "", masterKey: row.text(1) ?? "", changedTo: row.text(2),
                                        changedAt: row.text(2) == nil ? nil : Date(timeIntervalSince1970: row.real(3))))
        }
        return found
    }
}
