import Conversations
import Foundation
import Localization
import Matrix
import MessageStore

/// The signed-in account's session, or nil after saying why there is none.
@MainActor
func signedInSession(_ store: MessageStore) async -> ConversationSession? {
    if store.matrix.matrixAccount() != nil, store.matrix.isSignedOutByServer {
        printFailure(MatrixError.signedOutByServer.description)
        return nil
    }
    do {
        let secrets = SecretStore()
        guard let client = try await MatrixAccount.restore(store: store, secrets: secrets) else {
            printFailure(tr("not signed in to a Matrix account (sign in with 'hark account login')"))
            return nil
        }
        let session = ConversationSession(client: client, store: store, secrets: secrets)
        session.onDownloadFailure = { _, reason in printFailure(reason) }
        return session
    } catch {
        printFailure(error)
        return nil
    }
}

/// One sync, so the store knows the rooms; says (and returns false) when the server cannot answer.
@MainActor
private func refresh(_ session: ConversationSession) async -> Bool {
    do {
        try await session.syncOnce()
        return true
    } catch {
        printFailure(error)
        return false
    }
}

/// `hark rooms [--json]`: the joined rooms and invitations, as the server says now
/// (as last known when it cannot be reached).
@MainActor
func runRooms(json: Bool) -> Int32 {
    guard let store = openStore() else { return 1 }
    return runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        if !(await refresh(session)) {
            guard store.matrix.syncToken != nil else { return 1 }
            printFailure(tr("note: the rooms as last known"))
        }
        let rooms = (try? store.matrix.rooms()) ?? []
        // The members whose identity changed and who have not been accepted since, by room.
        let changed = rooms.map { room in ((try? store.matrix.identityChanges(inRoom: room.id)) ?? []).map(\.userID) }
        if json {
            let objects = zip(rooms, changed).map { room, changed in
                "{\"encrypted\":\(room.isEncrypted),\"id\":" + JSONText.string(room.id)
                    + ",\"identity_changed\":[" + changed.map(JSONText.string).joined(separator: ",") + "]"
                    + ",\"last_sender\":" + (room.lastSender.map(JSONText.string) ?? "null")
                    + ",\"membership\":" + JSONText.string(room.membership.rawValue)
                    + ",\"name\":" + JSONText.string(room.fullName)
                    + ",\"unread\":\(room.unreadCount)}"
            }
            print("[" + objects.joined(separator: ",") + "]")
        } else {
            for (room, changed) in zip(rooms, changed) {
                var notes: [String] = []
                if room.membership == .invite {
                    notes.append(room.inviter.map { tr("invited by {name}", ["name": $0]) } ?? tr("invited"))
                }
                if room.isEncrypted { notes.append(tr("encrypted")) }
                if room.unreadCount > 0 { notes.append(trn("{count} unread", "{count} unread", room.unreadCount)) }
                for user in changed { notes.append(tr("{user}’s identity changed", ["user": user])) }
                print("\(room.id)  \(terminalSafe(room.displayName))" + (notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))"))
            }
        }
        return 0
    }
}

/// `hark join ROOM_ID` (also accepts an invitation) and `hark leave ROOM_ID` (also declines one).
@MainActor
func runMembership(roomID: String, join: Bool) -> Int32 {
    guard let store = openStore() else { return 1 }
    return runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        do {
            if join { try await session.join(roomID) } else { try await session.leave(roomID) }
        } catch {
            printFailure(error)
            return 1
        }
        _ = await refresh(session)
        return 0
    }
}

/// `hark send ID ROOM_ID`: prints the event id; exits 3 when the server
/// cannot be reached (the message stays queued, and `hark sync` sends it).
@MainActor
func runSend(id: String, roomID: String, withTranscript: Bool) -> Int32 {
    guard let store = openStore() else { return 1 }
    var caption: String?
    if withTranscript {
        // Asked for by name, the words go or nothing does: a send cannot be taken back.
        do { caption = try store.transcriptToSend(of: id) } catch {
            printFailure(error)
            return 1
        }
        guard caption != nil else {
            printFailure(tr("{id} has no transcript: nothing was sent ('hark transcribe {id}' makes one; without --with-transcript it goes without)",
                            ["id": id]))
            return 1
        }
    }
    return runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        if (try? store.matrix.room(roomID)) == nil {
            _ = await refresh(session)  // a room joined elsewhere since the last sync
        }
        let entry: OutboxEntry
        do { entry = try session.send(id, to: roomID, caption: caption) } catch {
            printFailure(error)
            return 1
        }
        _ = await session.sendQueuedNow()
        guard let result = try? store.matrix.outboxEntry(entry.transactionID) else { return 1 }
        switch result.state {
        case .sent:
            print(result.eventID ?? "")
            return 0
        case .queued:
            printFailure(tr("queued: {reason}; 'hark sync' sends it", ["reason": result.lastError ?? tr("not sent yet")]))
            return 3
        case .failed:
            printFailure(tr("not sent: {reason}", ["reason": result.lastError ?? tr("the server refused it")]))
            return 1
        }
    }
}

/// `hark sync [--once]`: sends what is queued, then receives (new messages,
/// their audio downloaded and analysed), once or until Ctrl+C. With
/// transcription on, what arrives is transcribed as it is downloaded (each
/// transcript on standard error); `--once` waits for those transcripts.
@MainActor
func runSync(once: Bool) -> Int32 {
    guard let store = openStore() else { return 1 }
    let transcription = QueueWork(store: store)
    transcription.report = { id, state in printFailure(transcriptLine(id, state, in: store)) }
    let status = runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        let watching = session.changes.subscribe { change in
            switch change {
            case .downloaded(let id):
                transcription.addArrived([id])
            case .messages(let received, let removed):
                // Every sync's, also the one that goes before resending an upload.
                for message in received { print("received \(message.id)") }
                for id in removed { print("removed \(id)") }
            default:
                break
            }
        }
        defer { watching.cancel() }
        var saidChanges: Set<String> = []
        var status: Int32 = 0
        repeat {
            let stillQueued = await session.sendQueuedNow()
            if store.matrix.isSignedOutByServer {
                printFailure(MatrixError.signedOutByServer.description)
                return 1
            }
            do throws(MatrixError) {
                let outcome = try await session.syncOnce(timeoutMilliseconds: once ? 0 : 30_000)
                sayIdentityChanges(store, said: &saidChanges)
                for id in outcome.held { print("waiting \(id)") }
                for refusal in outcome.refusals { printFailure(refusal) }
                fflush(nil)  // a script reading the lines sees each sync's at once
                status = stillQueued.isEmpty ? 0 : 3
                if !stillQueued.isEmpty {
                    printFailure(trn("{count} message still queued", "{count} messages still queued", stillQueued.count))
                }
            } catch .cancelled {
                return status
            } catch {
                printFailure(error)
                if once || error == .signedOutByServer { return error == .signedOutByServer ? 1 : 3 }
                try? await Task.sleep(nanoseconds: 5_000_000_000)
            }
            await session.fetchWaitingDownloads()
        } while !once && !Task.isCancelled
        return status
    }
    if once && !transcription.isDone {
        _ = transcription.waitForAll()
    } else {
        transcription.stop()
    }
    return status
}
