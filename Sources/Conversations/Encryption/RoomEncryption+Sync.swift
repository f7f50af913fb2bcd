import Foundation
import Matrix

extension RoomEncryption {
    /// A `/sync` made readable: its encryption changes taken in (room keys
    /// kept before this returns), then every encrypted timeline event replaced
    /// by its plaintext, or held back until its key arrives. Events held back
    /// by earlier syncs that can be read now come back by room, oldest first.
    func decryptSync(_ response: inout SyncResponse) async throws -> [String: [RoomEvent]] {
        try await receive(response.encryption)
        for (roomID, room) in response.joined {
            var readable: [RoomEvent] = []
            for event in room.timeline {
                guard case .encrypted = event.content else {
                    readable.append(event)
                    continue
                }
                if let plain = try await readOrHold(event, roomID: roomID) { readable.append(plain) }
            }
            response.joined[roomID]?.timeline = readable
        }
        return try await readHeldEvents()
    }

    /// The plaintext of `event`, or nil when it waits for its key (then it is held) or is refused.
    func readOrHold(_ event: RoomEvent, roomID: String) async throws -> RoomEvent? {
        switch try await decrypt(event, roomID: roomID) {
        case .decrypted(let plain, _):
            return plain
        case .waitingForKey:
            hold(event, roomID: roomID)
            return nil
        case .refused:
            return nil
        }
    }
}
