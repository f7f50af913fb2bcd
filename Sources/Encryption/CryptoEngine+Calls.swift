import Foundation

/// The engine's calls, each one method of crypto-engine.py.
extension CryptoEngine {
    /// This device's identity keys.
    public func identityKeys() async throws(CryptoEngineError) -> IdentityKeys {
        try await call("identity_keys").decoded(IdentityKeys.self)
    }

    /// The device's Ed25519 signature of `canonicalJSON` (unpadded base64).
    public func sign(_ canonicalJSON: String) async throws(CryptoEngineError) -> String {
        let answer = try await call("sign", ["message": canonicalJSON])
        guard let signature = answer.string("signature") else { throw .refused(Refusal(rawValue: "unreadable_answer"), "no signature") }
        return signature
    }

    /// Makes `count` new one-time keys (and a fallback key when `fallback`),
    /// and gives every key not yet published; `markKeysPublished` once they are uploaded.
    public func generateOneTimeKeys(count: Int, fallback: Bool) async throws(CryptoEngineError) -> UnpublishedKeys {
        try await call("generate_one_time_keys", ["count": count, "fallback": fallback]).decoded(UnpublishedKeys.self)
    }

    /// The keys `generateOneTimeKeys` gave are on the server.
    public func markKeysPublished() async throws(CryptoEngineError) {
        _ = try await call("mark_keys_published")
    }

    /// Encrypts `plaintext` (a JSON object: the whole to-device payload, with
    /// sender, recipient and keys) for the device whose Curve25519 key is
    /// `deviceKey`: in a new session from `claimedOneTimeKey` when given,
    /// else in the newest session with it.
    public func encryptToDevice(_ plaintext: Data, for deviceKey: String,
                                claimedOneTimeKey: String? = nil) async throws(CryptoEngineError) -> OlmEncrypted {
        var arguments: [String: Any] = ["peer_key": deviceKey, "plaintext": try object(plaintext)]
        if let claimedOneTimeKey { arguments["one_time_key"] = claimedOneTimeKey }
        return try await call("olm_encrypt", arguments).decoded(OlmEncrypted.self)
    }

    /// Decrypts an Olm message from the device whose Curve25519 key is
    /// `senderKey` (a pre-key message makes the session). Refused with
    /// `.wrongRecipient` when its `recipient_keys` are another device's.
    public func decryptToDevice(_ message: OlmMessage, from senderKey: String) async throws(CryptoEngineError) -> Decrypted {
        let answer = try await call("olm_decrypt", ["sender_key": senderKey, "type": message.type, "body": message.body])
        return Decrypted(plaintext: try answer.json("plaintext"), senderKey: answer.string("sender_key") ?? senderKey,
                         messageIndex: nil, signingKey: nil)
    }

    /// Encrypts a room event (`type`, `content`: a JSON object) with the
    /// room's outbound Megolm session: a new one when there is none, when the
    /// old one has served its time (the room's `m.room.encryption`
    /// `rotation_period_ms` and `rotation_period_msgs`; a week and 100
    /// messages when it names none), or when `rotate` (a member left,
    /// history visibility changed).
    public func encryptRoomEvent(roomID: String, type: String, content: Data, rotationPeriodMilliseconds: Int? = nil,
                                 rotationMessages: Int? = nil, rotate: Bool = false) async throws(CryptoEngineError) -> MegolmEncrypted {
        var arguments: [String: Any] = ["room_id": roomID, "type": type, "content": try object(content), "rotate": rotate]
        if let rotationPeriodMilliseconds { arguments["rotation_period_ms"] = rotationPeriodMilliseconds }
        if let rotationMessages { arguments["rotation_messages"] = rotationMessages }
        return try await call("megolm_encrypt", arguments).decoded(MegolmEncrypted.self)
    }

    /// Records that the room key of `sessionID` went to `devices`; gives all it went to.
    @discardableResult
    public func markRoomKeyShared(roomID: String, sessionID: String, devices: [String]) async throws(CryptoEngineError) -> [String] {
        let answer = try await call("mark_room_key_shared", ["room_id": roomID, "session_id": sessionID, "devices": devices])
        return answer.object["shared_with"] as? [String] ?? []
    }

    /// The room's next message starts a new Megolm session.
    public func discardOutboundSession(roomID: String) async throws(CryptoEngineError) {
        _ = try await call("discard_outbound", ["room_id": roomID])
    }

    /// Keeps the room key of an `m.room_key` that `decryptToDevice` gave
    /// (after the caller checked its sender), with the sending device's keys.
    @discardableResult
    public func importRoomKey(_ roomKey: Decrypted) async throws(CryptoEngineError) -> RoomKeyImport {
        try await call("import_room_key", ["payload": try object(roomKey.plaintext), "sender_key": roomKey.senderKey])
            .decoded(RoomKeyImport.self)
    }

    /// Decrypts an `m.room.encrypted` room event (looked up by room and
    /// session id only): its `{type, content, room_id}`. Refused with
    /// `.waitingForKey` before its room key arrived, `.replay` for a message
    /// index seen under another event id, `.wrongRoom`, `.unknownIndex`.
    public func decryptRoomEvent(roomID: String, sessionID: String, ciphertext: String,
                                 eventID: String) async throws(CryptoEngineError) -> Decrypted {
        let event = MegolmCiphertext(roomID: roomID, sessionID: sessionID, ciphertext: ciphertext, eventID: eventID)
        return try decrypted(try await call("megolm_decrypt", event.arguments))
    }

    /// Decrypts room events as `decryptRoomEvent` does, each refused on its
    /// own (a replay also of an index earlier in the same list), in few calls
    /// that each save the helper's state once: what a `/sync` or a page of
    /// `/messages` brings. Throws only when the helper could not answer or save.
    public func decryptRoomEvents(_ events: [MegolmCiphertext]) async throws(CryptoEngineError)
        -> [Result<Decrypted, CryptoEngineError>] {
        var results: [Result<Decrypted, CryptoEngineError>] = []
        var rest = events[...]
        while !rest.isEmpty {
            // Calls of a bounded size: their lines stay far below the longest the channel takes.
            let batch = rest.prefix(Self.eventsPerCall)
            rest = rest.dropFirst(batch.count)
            let answer = try await call("megolm_decrypt_batch", ["events": batch.map(\.arguments)])
            guard let answers = answer.object["results"] as? [[String: Any]], answers.count == batch.count else {
                throw .refused(Refusal(rawValue: "unreadable_answer"), "the answer has no result for each event")
            }
            for object in answers {
                let one = Answer(object)
                if let code = one.string("code") {
                    results.append(.failure(.refused(Refusal(rawValue: code), one.string("error") ?? code)))
                } else {
                    results.append(Result { () throws(CryptoEngineError) in try decrypted(one) })
                }
            }
        }
        return results
    }

    static let eventsPerCall = 200

    private func decrypted(_ answer: Answer) throws(CryptoEngineError) -> Decrypted {
        Decrypted(plaintext: try answer.json("plaintext"), senderKey: answer.string("sender_key") ?? "",
                  messageIndex: answer.object["message_index"] as? Int, signingKey: answer.string("signing_key"))
    }

    private func object(_ json: Data) throws(CryptoEngineError) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw .refused(.badMessage, "the plaintext is not a JSON object")
        }
        return object
    }
}
