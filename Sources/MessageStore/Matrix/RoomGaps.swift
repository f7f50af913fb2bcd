import Foundation

/// A stretch of a room's timeline the store has not seen: what a limited
/// `/sync` left out before its batch.
public struct RoomGap: Sendable, Equatable {
    public var id: Int64
    public var roomID: String
    /// Where `/messages` goes back from: the batch's `prev_batch`, then each page's `end`.
    public var from: String
    /// Where the gap ends going back (the sync token the store had before it); nil: unknown.
    public var to: String?
}

extension MatrixTables {
    /// Records a gap before a room's batch (once per `from`).
    public func addGap(roomID: String, from: String, to: String?) throws(StoreError) {
        try store.checkWritable()
        try store.run("INSERT OR IGNORE INTO room_gaps (room_id, from_token, to_token) VALUES (?, ?, ?)",
                [.text(roomID), .text(from), .optionalText(to)])
    }

    /// The gaps still to fill, oldest recorded first.
    public func roomGaps() throws(StoreError) -> [RoomGap] {
        var found: [RoomGap] = []
        try store.run("SELECT id, room_id, from_token, to_token FROM room_gaps ORDER BY id") { row in
            found.append(RoomGap(id: row.integer(0), roomID: row.text(1) ?? "", from: row.text(2) ?? "", to: row.text(3)))
        }
        return found
    }

    /// The gap was filled back to `from`: the rest starts there.
    public func advanceGap(_ id: Int64, from: String) throws(StoreError) {
        try store.checkWritable()
        try store.run("UPDATE OR REPLACE room_gaps SET from_token = ? WHERE id = ?", [.text(from), .integer(id)])
    }

    /// The gap is filled (or can never be: the room is gone).
    public func closeGap(_ id: Int64) throws(StoreError) {
        try store.checkWritable()
        try store.run("DELETE FROM room_gaps WHERE id = ?", [.integer(id)])
    }
}
