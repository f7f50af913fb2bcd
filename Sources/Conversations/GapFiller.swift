import Foundation
import Localization
import Matrix
import MessageStore

/// Fills the gaps limited `/sync` answers left in rooms' timelines (the store
/// keeps them, see `RoomGap`): `/messages` back from each gap's start until
/// it meets what the store had (the sync token before the gap, an event the
/// store holds, or the room's start). Each page's progress is stored, so a
/// restart goes on where this one stopped.
@MainActor
struct GapFiller {
    let store: MessageStore
    let client: MatrixClient
    let userID: String
    /// Reads encrypted events (nil: there is no engine, they are left out).
    var encryption: RoomEncryption?
    /// When the events held for their keys arrived.
    var now = Date()
    /// Events per `/messages` page.
    var pageSize = 100
    /// Pages one sync fetches at most, whatever the gaps: a server that never
    /// says where a gap ends (tokens going round in a circle) cannot hold the
    /// sync for ever; what is left waits for the next sync.
    var pagesPerSync = 100

    /// Fills the gaps (as far as `pagesPerSync` allows), adding what arrived
    /// to `outcome` (oldest first). Throws when the server cannot be asked:
    /// the gaps stay for the next sync.
    func fill(into outcome: inout SyncOutcome) async throws(MatrixError) {
        var pagesLeft = pagesPerSync
        for gap in (try? store.matrix.roomGaps()) ?? [] where pagesLeft > 0 {
            try await fill(gap, pagesLeft: &pagesLeft, into: &outcome)
        }
    }

    private func fill(_ gap: RoomGap, pagesLeft: inout Int,
                      into outcome: inout SyncOutcome) async throws(MatrixError) {
        var from = gap.from
        var arrived = SyncOutcome()
        defer {
            // Pages go back in time: what an older page brought goes before.
            outcome.received = arrived.received + outcome.received
            outcome.removed += arrived.removed
            outcome.confirmedSends += arrived.confirmedSends
        }
        while pagesLeft > 0 {
            pagesLeft -= 1
            let page: MessagesPage
            do {
                page = try await client.messages(roomID: gap.roomID, from: from, to: gap.to, limit: pageSize)
            } catch .server(let status, _, _) where status < 500 && status != 408 && status != 429 {
                // Refused (the room was left, or is not readable): it can never be filled.
                try? store.matrix.closeGap(gap.id)
                return
            }
            var decrypted = DecryptedSync()
            let events = try await readableEvents(of: page, roomID: gap.roomID, into: &decrypted)
            var pageOutcome = SyncOutcome()
            do throws(StoreError) {
                var metKnown = false
                for case let id? in page.events.map(\.eventID) where try store.matrix.hasEvent(id) { metKnown = true }
                let applier = SyncApplier(store: store, userID: userID)
                try applier.applyTimeline(page.state, roomID: gap.roomID, unread: false, into: &pageOutcome)
                try applier.applyTimeline(events, roomID: gap.roomID, unread: true, into: &pageOutcome)
                try outcome.add(decrypted, store: store)
                arrived.received = pageOutcome.received + arrived.received
                arrived.removed += pageOutcome.removed
                arrived.confirmedSends += pageOutcome.confirmedSends
                if metKnown || page.end == nil || page.end == from {
                    try store.matrix.closeGap(gap.id)
                    return
                }
                from = page.end ?? from
                try store.matrix.advanceGap(gap.id, from: from)
            } catch {
                throw .badResponse(homeserver: client.displayName,
                                   detail: tr("the store refused it: {reason}", ["reason": "\(error)"]))
            }
        }
    }

    /// The page's events, oldest first, the encrypted ones decrypted (or held
    /// until their keys arrive, in `decrypted`) as a sync's are.
    func readableEvents(of page: MessagesPage, roomID: String,
                        into decrypted: inout DecryptedSync) async throws(MatrixError) -> [RoomEvent] {
        let events = Array(page.events.reversed())
        guard let encryption else { return events }
        do { return try await encryption.readOrHold(events, roomID: roomID, store: store, now: now, into: &decrypted) } catch {
            throw .badResponse(homeserver: client.displayName,
                               detail: tr("the encryption could not keep what arrived: {reason}", ["reason": "\(error)"]))
        }
    }
}
