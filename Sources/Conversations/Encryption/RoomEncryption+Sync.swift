import Foundation
import Matrix
import MessageStore

/// What the encryption made of a `/sync`'s encrypted events beyond its timelines.
struct DecryptedSync {
    /// Events held back by earlier syncs that can be read now, by room, oldest first.
    var readable: [String: [RoomEvent]] = [:]
    /// The events of `readable`: their rows become their messages, or go.
    var resolved: [String] = []
    /// The rows of events that cannot be read, new in this sync.
    var held: [String] = []
    /// Rows of events that cannot be read were added or changed.
    var heldChanged = false
    /// Why each event refused now will never be read, in words.
    var refusals: [String] = []
}

extension SyncOutcome {
    /// What the encryption made of a sync, once its timelines are applied:
    /// a held event decrypted to something Hark does not show (text) leaves
    /// the history with its row.
    mutating func add(_ decrypted: DecryptedSync, store: MessageStore) throws(StoreError) {
        removed += try store.matrix.dropUndecrypted(eventIDs: decrypted.resolved)
        undecryptedChanged = undecryptedChanged || decrypted.heldChanged
        held += decrypted.held
        refusals += decrypted.refusals
    }
}

extension RoomEncryption {
    /// A `/sync` made readable: its encryption changes taken in (room keys
    /// kept before this returns), then every encrypted timeline event replaced
    /// by its plaintext, or kept in `store` as a row that waits for its key
    /// (or says why it will never be read). Held events whose keys arrived
    /// now come back.
    func decryptSync(_ response: inout SyncResponse, store: MessageStore, now: Date) async throws -> DecryptedSync {
        try await receive(response.encryption)
        var outcome = DecryptedSync()
        for (roomID, room) in response.joined {
            response.joined[roomID]?.timeline = try await readOrHold(room.timeline, roomID: roomID, store: store, now: now,
                                                                     into: &outcome)
        }
        if !heldTried || !response.encryption.toDevice.isEmpty {
            heldTried = true
            try await readHeldEvents(store: store, into: &outcome)
        }
        if try !store.matrix.giveUpUndecrypted(heldBefore: now.addingTimeInterval(-Undecrypted.patience)).isEmpty {
            outcome.heldChanged = true
        }
        return outcome
    }

    /// `events` (a sync's timeline, a `/messages` page) readable: each
    /// encrypted one replaced by its plaintext, or left out when it waits for
    /// its key or is refused (then its row in `store` says so). The engine
    /// decrypts them all in one call.
    func readOrHold(_ events: [RoomEvent], roomID: String, store: MessageStore, now: Date,
                    into outcome: inout DecryptedSync) async throws -> [RoomEvent] {
        let encrypted = events.filter { if case .encrypted = $0.content { true } else { false } }
        var decryptions = try await decrypt(encrypted, roomID: roomID).makeIterator()
        var readable: [RoomEvent] = []
        for event in events {
            guard case .encrypted = event.content else {
                readable.append(event)
                continue
            }
            guard let decryption = decryptions.next() else { continue }
            if let plain = try readOrHold(event, decryption, roomID: roomID, store: store, now: now, into: &outcome) {
                readable.append(plain)
            }
        }
        return readable
    }

    /// The plaintext of `event` (`decryption`: what the engine made of it), or
    /// nil when it waits for its key or is refused (then its row in `store` says so).
    private func readOrHold(_ event: RoomEvent, _ decryption: Decryption, roomID: String, store: MessageStore, now: Date,
                            into outcome: inout DecryptedSync) throws -> RoomEvent? {
        if case .decrypted(var plain, let verified) = decryption {
            plain.fromUnverifiedDevice = !verified
            return plain
        }
        guard let eventID = event.eventID, let json = event.encryptedJSON else { return nil }
        let sentAt = event.originServerTimestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? now
        var row: Message?
        switch decryption {
        case .waitingForKey(let withheld):
            row = try store.matrix.holdUndecrypted(eventID: eventID, roomID: roomID, sender: event.sender, sentAt: sentAt,
                                                   event: json, withheld: withheld, at: now)
        case .refused(let sentence):
            row = try store.matrix.holdUndecrypted(eventID: eventID, roomID: roomID, sender: event.sender, sentAt: sentAt,
                                                   event: json, refusal: sentence, at: now)
            outcome.heldChanged = true
            outcome.refusals.append(sentence)
        case .decrypted:
            break
        }
        if let row {
            outcome.held.append(row.id)
            outcome.heldChanged = true
        }
        return nil
    }

    /// The held events whose keys arrived, decrypted; those whose sender
    /// said since why the key is not theirs say it.
    private func readHeldEvents(store: MessageStore, into outcome: inout DecryptedSync) async throws {
        var byRoom: [String: [(messageID: String, held: HeldEvent, withheld: String?, event: RoomEvent)]] = [:]
        for (messageID, held, withheld) in try store.matrix.heldEvents() {
            guard let event = try? JSONDecoder().decode(RoomEvent.self, from: held.event) else { continue }
            byRoom[held.roomID, default: []].append((messageID, held, withheld, event))
        }
        for (roomID, waiting) in byRoom {
            try await readHeld(waiting, roomID: roomID, store: store, into: &outcome)
        }
    }

    /// One room's held events, decrypted in one call of the engine.
    private func readHeld(_ waiting: [(messageID: String, held: HeldEvent, withheld: String?, event: RoomEvent)],
                          roomID: String, store: MessageStore, into outcome: inout DecryptedSync) async throws {
        let decryptions = try await decrypt(waiting.map(\.event), roomID: roomID)
        for ((messageID, held, withheld, _), decryption) in zip(waiting, decryptions) {
            switch decryption {
            case .decrypted(var plain, let verified):
                plain.fromUnverifiedDevice = !verified
                outcome.readable[held.roomID, default: []].append(plain)
                outcome.resolved.append(held.eventID)
            case .waitingForKey(let code):
                guard let code, code != withheld else { continue }
                try store.matrix.setWithheld(of: messageID, code)
                outcome.heldChanged = true
            case .refused(let sentence):
                try store.matrix.setRefusal(of: messageID, sentence)
                outcome.heldChanged = true
                outcome.refusals.append(sentence)
            }
        }
    }
}
