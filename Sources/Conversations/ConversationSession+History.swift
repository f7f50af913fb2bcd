import Encryption
import Foundation
import Localization
import Matrix
import Subscriptions
import MessageStore

extension ConversationSession {
    /// Fetches one page of a room's older messages (as the user scrolls back);
    /// how many audio messages it brought, nil when the room's start was reached before.
    public func loadOlderMessages(in roomID: String) async throws(ConversationError) -> Int? {
        guard let room = try? store.matrix.room(roomID), !room.historyComplete, let from = room.previousBatch else { return nil }
        let page: MessagesPage
        let events: [RoomEvent]
        var decrypted = DecryptedSync()
        do {
            page = try await client.messages(roomID: roomID, from: from)
            events = try await GapFiller(store: store, client: client, userID: userID, encryption: encryption, now: clock())
                .readableEvents(of: page, roomID: roomID, into: &decrypted)
        } catch {
            throw .matrix(error)
        }
        var outcome = SyncOutcome()
        do {
            let applier = SyncApplier(store: store, userID: userID)
            try applier.applyTimeline(page.state, roomID: roomID, unread: false, into: &outcome)
            try applier.applyTimeline(events, roomID: roomID, unread: false, into: &outcome)
            try outcome.add(decrypted, store: store)
            // A page may hold none of the types asked for and still not be the
            // start: only a missing `end` (or one that goes nowhere) says it is.
            let reachedStart = page.end == nil || page.end == from
            try store.matrix.setPreviousBatch(roomID: roomID, reachedStart ? nil : page.end, complete: reachedStart)
        } catch {
            throw .store(error)
        }
        if !outcome.received.isEmpty || outcome.undecryptedChanged {
            changes.send(.messages(received: outcome.received, removed: outcome.removed))
            if syncTask != nil { fetchDownloads() }
        }
        return outcome.received.count
    }
}
