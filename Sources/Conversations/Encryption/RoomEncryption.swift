import Encryption
import Foundation
import Localization
import Matrix
import MatrixCrypto
import MessageStore

/// End-to-end encryption for one signed-in device, as a seam the session
/// calls: a `/sync`'s to-device messages, device lists and key counts go in
/// (`receive`), room events are decrypted (`decrypt`) before the store sees
/// them and encrypted (`encrypt`) before the outbox sends them. Every
/// private key and session lives in the engine (a helper process); this
/// decides who gets which key and checks who sent what.
@MainActor
public final class RoomEncryption {
    public let engine: CryptoEngine
    private let client: MatrixClient
    private let userID: String
    private let deviceID: String
    private let directory: DeviceDirectory
    private let ownKeys: OwnDeviceKeys
    private var identity: IdentityKeys?
    /// Room keys whose sender said they were not shared with this device, by session id.
    public private(set) var withheld: [String: String] = [:]
    /// The held events (in the store) were tried once since Hark started:
    /// after that, only a sync that brings to-device messages (keys) may read them.
    var heldTried = false
    /// "session user device" for each withheld notice sent.
    private var withheldSent: Set<String> = []

    /// `store`: where the identities pinned on first use are kept (`store.matrix`).
    public init(engine: CryptoEngine, client: MatrixClient, store: MessageStore, userID: String, deviceID: String) {
        self.engine = engine
        self.client = client
        self.userID = userID
        self.deviceID = deviceID
        directory = DeviceDirectory(client: client, store: store)
        ownKeys = OwnDeviceKeys(engine: engine, client: client, userID: userID, deviceID: deviceID)
    }

    /// This device's identity keys, its signed keys uploaded the first time
    /// (the server answers whether it has them) with its first one-time keys
    /// and fallback key. After that only `/sync`'s counts say what is missing:
    /// a key made on every start would fill the server, and replace the
    /// fallback key that messages on their way were encrypted to.
    @discardableResult
    public func prepare() async throws -> IdentityKeys {
        if let identity { return identity }
        let keys = try await engine.identityKeys()
        let published = try await client.queryKeys(users: [userID]).devices[userID]?[deviceID]
        let uploaded = published?.curve25519 == keys.curve25519 && published?.ed25519 == keys.ed25519
        if !uploaded {
            try await ownKeys.upload(identity: keys, includingDeviceKeys: true, counts: nil, unusedFallbackKeys: nil)
        }
        identity = keys
        return keys
    }

    /// Someone's identity changed, or a change ended (accepted, or back to
    /// the pinned one): their user id. The store says which changes wait.
    public var onIdentityChange: (String) -> Void {
        get { directory.onIdentityChange }
        set { directory.onIdentityChange = newValue }
    }

    /// The user accepted `user`'s new identity (pinned in the store): their
    /// devices under it count as cross-signed from the next look.
    public func identityAccepted(_ user: String) {
        directory.accepted(user)
    }

    // MARK: Receiving

    /// Takes what a `/sync` said for the encryption. Room keys are kept (by
    /// the engine, on disk) before this returns: the caller saves the sync's
    /// token only after. A message that cannot be read is skipped (its room
    /// event will wait for its key); an engine that cannot save throws.
    public func receive(_ changes: EncryptionSyncChanges) async throws {
        let identity = try await prepare()
        directory.changed(changes.changedDeviceLists, left: changes.leftDeviceLists)
        for event in changes.toDevice {
            switch event.type {
            case "m.room.encrypted":
                try await receiveOlm(event, identity: identity)
            case "m.room_key.withheld":
                if let session = event.content["session_id"]?.stringValue {
                    withheld[session] = event.content["code"]?.stringValue ?? "m.unavailable"
                }
            default:
                continue
            }
        }
        await directory.refreshOutdated()
        if changes.oneTimeKeyCounts != nil || changes.unusedFallbackKeyTypes != nil {
            try await ownKeys.upload(identity: identity, includingDeviceKeys: false, counts: changes.oneTimeKeyCounts ?? [:],
                                     unusedFallbackKeys: changes.unusedFallbackKeyTypes ?? [OwnDeviceKeys.oneTimeKeyAlgorithm])
        }
    }

    private func receiveOlm(_ event: ToDeviceEvent, identity: IdentityKeys) async throws {
        guard case .olm(let senderKey, let ciphertexts) = EncryptedContent(event.content),
              let mine = ciphertexts[identity.curve25519] else { return }
        let decrypted: Decrypted
        do {
            decrypted = try await engine.decryptToDevice(OlmMessage(type: mine.type, body: mine.body), from: senderKey)
        } catch {
            if case .refused(let refusal, _) = error, refusal != .stateUnwritable { return }
            throw error
        }
        guard let payload = try? JSONValue(parsing: decrypted.plaintext),
              payload["sender"]?.stringValue == event.sender, payload["recipient"]?.stringValue == userID,
              payload["recipient_keys"]?["ed25519"]?.stringValue == identity.ed25519,
              let signingKey = payload["keys"]?["ed25519"]?.stringValue,
              let device = try? await directory.device(of: event.sender, curve25519: senderKey),
              device.ed25519 == signingKey
        else { return }
        guard payload["type"]?.stringValue == "m.room_key",
              payload["content"]?["algorithm"]?.stringValue == MegolmAlgorithm.name else { return }
        do {
            try await engine.importRoomKey(decrypted)
            if let sessionID = payload["content"]?["session_id"]?.stringValue { withheld[sessionID] = nil }
        } catch {
            if case .refused(let refusal, _) = error, refusal != .stateUnwritable { return }
            throw error
        }
    }

    // MARK: Room events

    public enum Decryption: Equatable, Sendable {
        /// The event as its sender wrote it; `verified`: its key came from a
        /// device of its sender that the sender cross-signed.
        case decrypted(RoomEvent, verified: Bool)
        /// Its room key has not arrived (yet); `withheld`: the sender's code for not sending it.
        case waitingForKey(withheld: String?)
        /// It will never be read: a replay, another room's event, a broken message.
        case refused(String)
    }

    /// An `m.room.encrypted` room event, decrypted.
    public func decrypt(_ event: RoomEvent, roomID: String) async throws -> Decryption {
        try await decrypt([event], roomID: roomID)[0]
    }

    /// `m.room.encrypted` room events of `roomID`, decrypted in one go (the
    /// engine saves once for them all), in their order.
    public func decrypt(_ events: [RoomEvent], roomID: String) async throws -> [Decryption] {
        var ciphertexts: [MegolmCiphertext] = [], positions: [Int] = []
        for (position, event) in events.enumerated() {
            guard case .encrypted(let content) = event.content, case .megolm(let sessionID, let ciphertext, _, _) = content,
                  let eventID = event.eventID else { continue }
            ciphertexts.append(MegolmCiphertext(roomID: roomID, sessionID: sessionID, ciphertext: ciphertext, eventID: eventID))
            positions.append(position)
        }
        var answers = [Decryption](repeating: .refused(tr("This message is encrypted in a way Hark cannot read.")),
                                   count: events.count)
        let results = try await engine.decryptRoomEvents(ciphertexts)
        for ((position, ciphertext), result) in zip(zip(positions, ciphertexts), results) {
            answers[position] = try await judged(result, of: events[position], sessionID: ciphertext.sessionID, roomID: roomID)
        }
        return answers
    }

    /// What the engine's answer for `event` means: its plaintext and whether its sender's device vouches for it.
    private func judged(_ result: Result<Decrypted, CryptoEngineError>, of event: RoomEvent, sessionID: String,
                        roomID: String) async throws -> Decryption {
        let decrypted: Decrypted
        switch result {
        case .success(let answer):
            decrypted = answer
        case .failure(let error):
            guard case .refused(let refusal, _) = error, refusal != .stateUnwritable else { throw error }
            switch refusal {
            case .waitingForKey, .unknownIndex: return .waitingForKey(withheld: withheld[sessionID])
            case .replay: return .refused(tr("This message repeats an earlier one under another name, so it was not shown."))
            default: return .refused(tr("This message could not be decrypted."))
            }
        }
        guard let payload = try? JSONValue(parsing: decrypted.plaintext), let plain = event.decrypted(payload, roomID: roomID)
        else { return .refused(tr("This message could not be decrypted.")) }
        guard let device = try? await directory.device(of: event.sender, curve25519: decrypted.senderKey),
              device.ed25519 == decrypted.signingKey
        else { return .decrypted(plain, verified: false) }
        let crossSigned = (try? await directory.listed([event.sender]))?[event.sender]?.crossSigned.contains(device.deviceID)
        return .decrypted(plain, verified: crossSigned == true)
    }

    // MARK: Sending

    /// `content` of `type` encrypted for `roomID`: its room key shared over
    /// Olm with every device of `members` that its owner cross-signed first
    /// (as Element does since 2026; the others are told `m.unverified`), the
    /// session rotated when a device that had it is gone. The content of the
    /// `m.room.encrypted` event to send.
    public func encrypt(roomID: String, type: String, content: JSONValue, members: [String]) async throws -> JSONValue {
        let identity = try await prepare()
        let listed = try await directory.listed(members)
        var trusted: [DeviceKeys] = [], untrusted: [DeviceKeys] = []
        for (user, entry) in listed {
            for device in entry.devices.values where !(user == userID && device.deviceID == deviceID) {
                if entry.crossSigned.contains(device.deviceID) { trusted.append(device) } else { untrusted.append(device) }
            }
        }
        let current = Set(trusted.compactMap(\.curve25519))
        let body = content.jsonData
        var encrypted = try await engine.encryptRoomEvent(roomID: roomID, type: type, content: body)
        if !Set(encrypted.sharedWith).isSubset(of: current) {
            // Someone who had the key left (or a device went, or lost its owner's signature):
            // they must not read what follows.
            try await engine.discardOutboundSession(roomID: roomID)
            encrypted = try await engine.encryptRoomEvent(roomID: roomID, type: type, content: body)
        }
        let shared = Set(encrypted.sharedWith)
        let missing = trusted.filter { device in device.curve25519.map { !shared.contains($0) } ?? false }
        if !missing.isEmpty {
            try await share(encrypted, roomID: roomID, with: missing, identity: identity)
        }
        try await withhold(encrypted.sessionID, roomID: roomID, from: untrusted, identity: identity)
        return EncryptedContent.megolmContent(sessionID: encrypted.sessionID, ciphertext: encrypted.ciphertext,
                                              senderKey: identity.curve25519, deviceID: deviceID)
    }

    /// Tells devices their owner has not cross-signed that this session's key is not theirs (once per session).
    private func withhold(_ sessionID: String, roomID: String, from devices: [DeviceKeys], identity: IdentityKeys) async throws {
        var messages: [String: [String: JSONValue]] = [:]
        for device in devices where withheldSent.insert("\(sessionID) \(device.userID) \(device.deviceID)").inserted {
            messages[device.userID, default: [:]][device.deviceID] = .object([
                "room_id": .string(roomID), "session_id": .string(sessionID), "algorithm": .string(MegolmAlgorithm.name),
                "sender_key": .string(identity.curve25519), "code": "m.unverified",
                "reason": "The sender shares keys only with devices their owner has verified.",
            ])
        }
        try await client.sendToDevice(type: "m.room_key.withheld", messages: messages)
    }

    /// Sends the session's key to `devices` over Olm (claiming a one-time key
    /// for a device Hark has no session with) and records who has it.
    private func share(_ session: MegolmEncrypted, roomID: String, with devices: [DeviceKeys],
                       identity: IdentityKeys) async throws {
        var messages: [String: [String: JSONValue]] = [:]
        var needClaim: [DeviceKeys] = []
        for device in devices {
            do {
                messages[device.userID, default: [:]][device.deviceID] =
                    try await olmRoomKey(session, roomID: roomID, for: device, identity: identity, oneTimeKey: nil)
            } catch CryptoEngineError.refused(.noSession, _) {
                needClaim.append(device)
            }
        }
        if !needClaim.isEmpty {
            let wanted = Dictionary(grouping: needClaim, by: \.userID).mapValues { $0.map(\.deviceID) }
            let claimed = try await client.claimKeys(wanted)
            for device in needClaim {
                guard let key = claimed.oneTimeKeys[device.userID]?[device.deviceID],
                      let oneTimeKey = key.key, let ed25519 = device.ed25519, let publicKey = MatrixBase64.decode(ed25519),
                      JSONSigning.verify(key.signed, entity: device.userID, keyID: "ed25519:\(device.deviceID)",
                                         publicKey: publicKey)
                else { continue }  // no key left, or one its device did not sign: it cannot be reached now
                messages[device.userID, default: [:]][device.deviceID] =
                    try await olmRoomKey(session, roomID: roomID, for: device, identity: identity, oneTimeKey: oneTimeKey)
            }
        }
        try await client.sendToDevice(type: "m.room.encrypted", messages: messages)
        let sentTo = devices.filter { messages[$0.userID]?[$0.deviceID] != nil }.compactMap(\.curve25519)
        try await engine.markRoomKeyShared(roomID: roomID, sessionID: session.sessionID, devices: sentTo)
    }

    private func olmRoomKey(_ session: MegolmEncrypted, roomID: String, for device: DeviceKeys, identity: IdentityKeys,
                            oneTimeKey: String?) async throws -> JSONValue {
        guard let curve25519 = device.curve25519, let ed25519 = device.ed25519 else { throw CryptoEngineError.refused(.badKey, "") }
        let payload: JSONValue = .object([
            "type": "m.room_key", "sender": .string(userID), "sender_device": .string(deviceID),
            "keys": .object(["ed25519": .string(identity.ed25519)]),
            "recipient": .string(device.userID), "recipient_keys": .object(["ed25519": .string(ed25519)]),
            "content": .object(["algorithm": .string(MegolmAlgorithm.name), "room_id": .string(roomID),
                                "session_id": .string(session.sessionID), "session_key": .string(session.sessionKey)]),
        ])
        let encrypted = try await engine.encryptToDevice(payload.jsonData, for: curve25519, claimedOneTimeKey: oneTimeKey)
        var ciphertext: [String: JSONValue] = [:]
        for (key, message) in encrypted.ciphertext {
            ciphertext[key] = .object(["type": .integer(Int64(message.type)), "body": .string(message.body)])
        }
        return .object(["algorithm": .string(OlmAlgorithm.name), "sender_key": .string(encrypted.senderKey),
                        "ciphertext": .object(ciphertext)])
    }
}
