import Foundation
import Matrix
import MatrixCrypto

/// The devices of the people Hark speaks with in encrypted rooms: queried
/// from the server when first needed and again when a `/sync` says a user's
/// devices changed. A device is listed only when its keys carry its own
/// valid signature (the spec's check on `/keys/query`).
@MainActor
final class DeviceDirectory {
    private let client: MatrixClient
    private var devices: [String: [String: DeviceKeys]] = [:]
    private var outdated: Set<String> = []

    init(client: MatrixClient) {
        self.client = client
    }

    /// A `/sync` said these users' devices changed, or that Hark shares no room with them any more.
    func changed(_ users: [String], left: [String]) {
        for user in users where devices[user] != nil { outdated.insert(user) }
        for user in left {
            devices[user] = nil
            outdated.remove(user)
        }
    }

    /// The verified devices of each of `users`, querying whoever is unknown or outdated.
    func devices(of users: [String]) async throws(MatrixError) -> [String: [String: DeviceKeys]] {
        let wanted = users.filter { devices[$0] == nil || outdated.contains($0) }
        if !wanted.isEmpty {
            let answer = try await client.queryKeys(users: wanted)
            for user in wanted {
                devices[user] = (answer.devices[user] ?? [:]).filter { Self.isSelfSigned($0.value) }
                outdated.remove(user)
            }
        }
        return users.reduce(into: [:]) { found, user in found[user] = devices[user] ?? [:] }
    }

    /// The device of `userID` whose Curve25519 key is `curve25519`, when it is listed.
    func device(of userID: String, curve25519: String) async throws(MatrixError) -> DeviceKeys? {
        if let known = devices[userID]?.values.first(where: { $0.curve25519 == curve25519 }) { return known }
        // A new device that wrote before its owner's list said so: ask once more.
        outdated.insert(userID)
        return try await devices(of: [userID])[userID]?.values.first { $0.curve25519 == curve25519 }
    }

    /// Whether the device's keys are signed by its own Ed25519 key and speak Olm and Megolm.
    static func isSelfSigned(_ device: DeviceKeys) -> Bool {
        guard let ed25519 = device.ed25519, let publicKey = MatrixBase64.decode(ed25519), device.curve25519 != nil
        else { return false }
        return JSONSigning.verify(device.signed, entity: device.userID, keyID: "ed25519:\(device.deviceID)",
                                  publicKey: publicKey)
    }
}
