import Foundation
import Matrix
import MessageStore

extension ConversationSession {
    /// Declines the invitations to `roomIDs`, one request after another
    /// (hundreds of invitations must neither flood the server nor hold the
    /// window), telling `progress` how many are answered after each; the
    /// sidebar is told once, at the end. One that fails does not stop the
    /// others: the failures come back, by room.
    public func declineInvitations(_ roomIDs: [String], progress: @escaping @MainActor (Int) -> Void = { _ in })
        async -> [(roomID: String, error: ConversationError)] {
        var failures: [(roomID: String, error: ConversationError)] = []
        for (index, roomID) in roomIDs.enumerated() {
            do {
                try await client.leave(roomID: roomID)
                try? store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .leave))
            } catch {
                failures.append((roomID, .matrix(error)))
            }
            progress(index + 1)
        }
        changes.send(.rooms)
        return failures
    }
}
