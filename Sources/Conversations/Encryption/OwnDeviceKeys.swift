import Encryption
import Foundation
import Matrix
import MatrixCrypto

/// This device's keys on the server: its signed identity keys once, then
/// one-time keys kept at half of what the account can hold, and a fallback
/// key, as `/sync`'s counts say they are used up.
@MainActor
struct OwnDeviceKeys {
    let engine: CryptoEngine
    let client: MatrixClient
    let userID: String
    let deviceID: String

    static let oneTimeKeyAlgorithm = "signed_curve25519"

    /// The device's keys as published: algorithms and identity keys, self-signed.
    func deviceKeys(_ identity: IdentityKeys) async throws -> JSONValue {
        let keys: [String: JSONValue] = [
            "user_id": .string(userID), "device_id": .string(deviceID),
            "algorithms": [.string(OlmAlgorithm.name), .string(MegolmAlgorithm.name)],
            "keys": .object(["curve25519:\(deviceID)": .string(identity.curve25519),
                             "ed25519:\(deviceID)": .string(identity.ed25519)]),
        ]
        return .object(try await signed(keys))
    }

    /// `object` with this device's signature.
    func signed(_ object: [String: JSONValue]) async throws -> [String: JSONValue] {
        let signature = try await engine.sign(String(decoding: try JSONSigning.signedBytes(of: object), as: UTF8.self))
        var signed = object
        signed["signatures"] = .object([userID: .object(["ed25519:\(deviceID)": .string(signature)])])
        return signed
    }

    /// Uploads the device keys and every one-time key the counts say are
    /// missing (nil counts: the server has none yet), and a fallback key
    /// when the server has no unused one.
    func upload(identity: IdentityKeys, includingDeviceKeys: Bool, counts: [String: Int]?,
                unusedFallbackKeys: [String]?) async throws {
        let target = identity.maxOneTimeKeys / 2
        let held = counts?[Self.oneTimeKeyAlgorithm] ?? 0
        let needsFallback = !(unusedFallbackKeys?.contains(Self.oneTimeKeyAlgorithm) ?? false)
        let missing = max(0, target - held)
        guard includingDeviceKeys || missing > 0 || needsFallback else { return }
        let fresh = try await engine.generateOneTimeKeys(count: missing, fallback: needsFallback)
        var oneTimeKeys: [String: JSONValue] = [:]
        for (id, key) in fresh.oneTimeKeys {
            oneTimeKeys["\(Self.oneTimeKeyAlgorithm):\(id)"] = .object(try await signed(["key": .string(key)]))
        }
        var fallbackKeys: [String: JSONValue] = [:]
        for (id, key) in fresh.fallbackKey {
            fallbackKeys["\(Self.oneTimeKeyAlgorithm):\(id)"] = .object(try await signed(["key": .string(key), "fallback": true]))
        }
        // Not `nil` in a conditional: JSONValue takes that literal as JSON's null.
        var deviceKeys: JSONValue?
        if includingDeviceKeys { deviceKeys = try await self.deviceKeys(identity) }
        guard deviceKeys != nil || !oneTimeKeys.isEmpty || !fallbackKeys.isEmpty else { return }
        try await client.uploadKeys(deviceKeys: deviceKeys, oneTimeKeys: oneTimeKeys, fallbackKeys: fallbackKeys)
        try await engine.markKeysPublished()
    }
}
