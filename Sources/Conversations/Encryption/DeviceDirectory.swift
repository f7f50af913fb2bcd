import Foundation
import Matrix
import MatrixCrypto
import MessageStore

/// The devices of the people Hark speaks with in encrypted rooms: queried
/// from the server when first needed and again when a `/sync` says a user's
/// devices changed. A device is listed only when its keys carry its own
/// valid signature (the spec's check on `/keys/query`), and counts as its
/// owner's when the owner's self-signing key (signed by their master key)
/// signed it: cross-signed, while that master key is the one pinned for
/// them (`IdentityPinning`: the first seen, or the last the user accepted).
@MainActor
final class DeviceDirectory {
    struct Listed {
        var devices: [String: DeviceKeys]
        /// Device ids their owner cross-signed.
        var crossSigned: Set<String>
    }

    private let client: MatrixClient
    private let store: MessageStore
    private var users: [String: Listed] = [:]
    private var outdated: Set<String> = []
    /// Someone's identity changed (or a change was accepted or went back): their user id.
    var onIdentityChange: (String) -> Void = { _ in }

    init(client: MatrixClient, store: MessageStore) {
        self.client = client
        self.store = store
    }

    /// A `/sync` said these users' devices changed, or that Hark shares no room with them any more.
    func changed(_ changed: [String], left: [String]) {
        for user in changed where users[user] != nil || (try? store.matrix.pinnedIdentity(of: user)) != nil {
            outdated.insert(user)
        }
        for user in left {
            users[user] = nil
            outdated.remove(user)
        }
    }

    /// Asks again for the devices of those whose list changed: a new identity is said as the sync brings it,
    /// not at the next send. Failures wait for the next need.
    func refreshOutdated() async {
        guard !outdated.isEmpty else { return }
        _ = try? await listed(outdated.sorted())
    }

    /// The user accepted `user`'s new identity: their devices are looked at again.
    func accepted(_ user: String) {
        if users[user] != nil { outdated.insert(user) }
    }

    /// Each of `wanted`'s devices and which are cross-signed, querying whoever is unknown or outdated.
    func listed(_ wanted: [String]) async throws(MatrixError) -> [String: Listed] {
        let query = wanted.filter { users[$0] == nil || outdated.contains($0) }
        if !query.isEmpty {
            let answer = try await client.queryKeys(users: query)
            for user in query {
                let devices = (answer.devices[user] ?? [:]).filter { Self.isSelfSigned($0.value) }
                let selfSigning = Self.verifiedSelfSigningKey(of: user, in: answer)
                let crossSigned = Set(devices.values.filter { device in
                    selfSigning.map { Self.isSigned(device.signed, by: $0, of: user) } ?? false
                }.map(\.deviceID))
                let master = answer.masterKeys[user].flatMap { $0.usage.contains("master") ? $0.publicKey : nil }
                users[user] = Listed(devices: devices, crossSigned: pinning(user, master: master) ? crossSigned : [])
                outdated.remove(user)
            }
        }
        return wanted.reduce(into: [:]) { found, user in found[user] = users[user] ?? Listed(devices: [:], crossSigned: []) }
    }

    /// Whether `user`'s published master key is the one pinned for them, pinning it when it is the first;
    /// a change is kept (and said) until the user accepts it.
    private func pinning(_ user: String, master: String?) -> Bool {
        let pinned: PinnedIdentity?
        do { pinned = try store.matrix.pinnedIdentity(of: user) } catch { return false }
        let verdict = IdentityPinning.verdict(pinned: pinned, published: master)
        do {
            switch verdict {
            case .noIdentity, .pinned(revertedChange: false), .changed(_, isNew: false):
                break
            case .pinFirst(let key):
                try store.matrix.pinIdentity(of: user, masterKey: key)
            case .pinned(revertedChange: true):
                try store.matrix.setIdentityChange(of: user, to: nil)
                onIdentityChange(user)
            case .changed(let key, isNew: true):
                try store.matrix.setIdentityChange(of: user, to: key)
                onIdentityChange(user)
            }
        } catch {
            return false  // a pin that could not be kept is no pin
        }
        return verdict.isTrusted
    }

    /// The device of `userID` whose Curve25519 key is `curve25519`, when it is listed.
    func device(of userID: String, curve25519: String) async throws(MatrixError) -> DeviceKeys? {
        if let known = users[userID]?.devices.values.first(where: { $0.curve25519 == curve25519 }) { return known }
        // A new device that wrote before its owner's list said so: ask once more.
        outdated.insert(userID)
        return try await listed([userID])[userID]?.devices.values.first { $0.curve25519 == curve25519 }
    }

    /// Whether the device's keys are signed by its own Ed25519 key and speak Olm and Megolm.
    static func isSelfSigned(_ device: DeviceKeys) -> Bool {
        guard let ed25519 = device.ed25519, device.curve25519 != nil else { return false }
        return isSigned(device.signed, by: ed25519, of: device.userID, keyID: "ed25519:\(device.deviceID)")
    }

    /// The user's self-signing key, when their master key signed it.
    static func verifiedSelfSigningKey(of user: String, in answer: KeysQueryResponse) -> String? {
        guard let master = answer.masterKeys[user], master.usage.contains("master"),
              let selfSigning = answer.selfSigningKeys[user], selfSigning.usage.contains("self_signing"),
              isSigned(selfSigning.signed, by: master.publicKey, of: user)
        else { return nil }
        return selfSigning.publicKey
    }

    static func isSigned(_ object: [String: JSONValue], by publicKey: String, of user: String, keyID: String? = nil) -> Bool {
        guard let key = MatrixBase64.decode(publicKey) else { return false }
        return JSONSigning.verify(object, entity: user, keyID: keyID ?? "ed25519:\(publicKey)", publicKey: key)
    }
}
