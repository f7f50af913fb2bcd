import Foundation
import Localization
import Matrix
import MatrixCrypto
import MessageStore

/// The account's cross-signing identity (master, self-signing and
/// user-signing keys) and this device's place in it. The private keys live
/// only in Secret Storage on the server, encrypted under the user's recovery
/// key; Hark unlocks the self-signing key when the user gives that key,
/// signs its own device, and keeps nothing of it. An identity made or
/// unlocked here is the account's own for sure: its master key is pinned in
/// `store` (`IdentityPinning`) in place of any other.
@MainActor
public struct CrossSigning {
    let client: MatrixClient
    let userID: String
    let deviceID: String
    let store: MessageStore?

    public init(client: MatrixClient, userID: String, deviceID: String, store: MessageStore? = nil) {
        self.client = client
        self.userID = userID
        self.deviceID = deviceID
        self.store = store
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case matrix(MatrixError)
        case crypto(CryptoError)
        /// The account has no cross-signing identity in Secret Storage yet.
        case noIdentity
        /// The account already has one: a new one would cut off every device it verified.
        case identityExists
        /// What Secret Storage holds does not match the published keys.
        case mismatch
        /// The server wants the password before it takes the keys.
        case passwordNeeded

        public var description: String {
            switch self {
            case .matrix(let error): return error.description
            case .crypto(let error): return error.description
            case .noIdentity:
                return tr("This account has no recovery key yet: make one (Hark does it with `hark account recover --new`).")
            case .identityExists:
                return tr("This account already has a recovery key: enter it to verify this device.")
            case .mismatch:
                return tr("The keys in this account’s secret storage do not match its published identity.")
            case .passwordNeeded:
                return tr("The server asks for your password before it takes the new identity keys.")
            }
        }
    }

    /// The published cross-signing keys of the account, and whether this device carries the self-signing key's signature.
    public func status() async throws(Failure) -> (hasIdentity: Bool, deviceCrossSigned: Bool) {
        let answer: KeysQueryResponse
        do { answer = try await client.queryKeys(users: [userID]) } catch { throw .matrix(error) }
        guard let selfSigning = answer.selfSigningKeys[userID], let key = MatrixBase64.decode(selfSigning.publicKey),
              answer.masterKeys[userID] != nil else { return (false, false) }
        guard let device = answer.devices[userID]?[deviceID] else { return (true, false) }
        let signed = JSONSigning.verify(device.signed, entity: userID, keyID: "ed25519:\(selfSigning.publicKey)", publicKey: key)
        return (true, signed)
    }

    /// A new identity: three keys published, their private halves in Secret
    /// Storage under a new key, this device signed. The recovery key, to be
    /// shown once. `password`: the account's, for a server that asks for it
    /// before it takes the keys (`.passwordNeeded` without it).
    public func createIdentity(password: String? = nil) async throws(Failure) -> String {
        if try await status().hasIdentity { throw .identityExists }
        do {
            return try await publishNewIdentity(password: password)
        } catch {
            throw Self.failure(error)
        }
    }

    private func publishNewIdentity(password: String?) async throws -> String {
        let master = try Ed25519SigningKey.generate()
        let selfSigning = try Ed25519SigningKey.generate()
        let userSigning = try Ed25519SigningKey.generate()
        do {
            try await client.uploadCrossSigningKeys(master: try keyObject(master, usage: "master", signedBy: nil),
                                                    selfSigning: try keyObject(selfSigning, usage: "self_signing", signedBy: master),
                                                    userSigning: try keyObject(userSigning, usage: "user_signing", signedBy: master),
                                                    password: password)
        } catch MatrixError.server(401, _, _) {
            throw Failure.passwordNeeded
        }
        let storageKey = try secureRandomBytes(32)
        let keyID = MatrixBase64.encode(try secureRandomBytes(12)).filter { $0.isLetter || $0.isNumber }
        let description = try SecretStorage.describe(key: storageKey, name: "Hark")
        try await client.setAccountData(type: "m.secret_storage.key.\(keyID)", content: try Self.json(description))
        let secrets: [(String, Data)] = [("m.cross_signing.master", master.seed), ("m.cross_signing.self_signing", selfSigning.seed),
                                         ("m.cross_signing.user_signing", userSigning.seed)]
        for (name, seed) in secrets {
            let sealed = try SecretStorage.encrypt(MatrixBase64.encode(seed), name: name, key: storageKey)
            try await client.setAccountData(type: name, content: .object(["encrypted": .object([keyID: try Self.json(sealed)])]))
        }
        try await client.setAccountData(type: "m.secret_storage.default_key", content: .object(["key": .string(keyID)]))
        try await signDevice(with: selfSigning)
        try? store?.matrix.repinIdentity(of: userID, masterKey: MatrixBase64.encode(master.publicKey))
        return try RecoveryKey.encode(storageKey)
    }

    private static func failure(_ error: any Error) -> Failure {
        switch error {
        case let failure as Failure: return failure
        case let crypto as CryptoError: return .crypto(crypto)
        case let matrix as MatrixError: return .matrix(matrix)
        default: return .mismatch
        }
    }

    /// Unlocks the self-signing key with the user's recovery key or
    /// passphrase, checks it is the published one, and signs this device.
    public func verifyThisDevice(with typed: String) async throws(Failure) {
        do {
            guard let keyID = try await client.accountData(type: "m.secret_storage.default_key")?["key"]?.stringValue,
                  let described = try await client.accountData(type: "m.secret_storage.key.\(keyID)"),
                  let sealed = try await client.accountData(type: "m.cross_signing.self_signing")?["encrypted"]?[keyID]
            else { throw Failure.noIdentity }
            let description = try JSONDecoder().decode(SecretStorageKeyDescription.self, from: described.jsonData)
            let storageKey = try SecretStorage.unlock(typed, description: description)
            let secret = try JSONDecoder().decode(EncryptedSecret.self, from: sealed.jsonData)
            let seedText = try SecretStorage.decrypt(secret, name: "m.cross_signing.self_signing", key: storageKey)
            guard let seed = MatrixBase64.decode(seedText) else { throw Failure.mismatch }
            let selfSigning = try Ed25519SigningKey(seed: seed)
            let answer = try await client.queryKeys(users: [userID])
            guard answer.selfSigningKeys[userID]?.publicKey == MatrixBase64.encode(selfSigning.publicKey),
                  DeviceDirectory.verifiedSelfSigningKey(of: userID, in: answer) != nil,
                  let master = answer.masterKeys[userID]?.publicKey
            else { throw Failure.mismatch }
            try await signDevice(with: selfSigning)
            // The recovery key unlocked the key this master key signed: the identity is the account's.
            try? store?.matrix.repinIdentity(of: userID, masterKey: master)
        } catch {
            throw Self.failure(error)
        }
    }

    /// This device's published keys with the self-signing key's signature added, uploaded.
    private func signDevice(with selfSigning: Ed25519SigningKey) async throws {
        guard let device = try await client.queryKeys(users: [userID]).devices[userID]?[deviceID] else {
            throw Failure.mismatch
        }
        var keys = device.signed
        keys["unsigned"] = nil
        let publicKey = MatrixBase64.encode(selfSigning.publicKey)
        let signed = try JSONSigning.sign(keys, entity: userID, keyID: "ed25519:\(publicKey)", with: selfSigning)
        let failures = try await client.uploadSignatures([userID: [deviceID: .object(signed)]])
        guard failures.objectValue?.isEmpty ?? true else { throw Failure.mismatch }
    }

    /// A cross-signing key's published object, signed by `signer` (the master key) when given.
    private func keyObject(_ key: Ed25519SigningKey, usage: String, signedBy signer: Ed25519SigningKey?) throws(CryptoError) -> JSONValue {
        let publicKey = MatrixBase64.encode(key.publicKey)
        let object: [String: JSONValue] = ["user_id": .string(userID), "usage": [.string(usage)],
                                           "keys": .object(["ed25519:\(publicKey)": .string(publicKey)])]
        guard let signer else { return .object(object) }
        let signerKey = MatrixBase64.encode(signer.publicKey)
        return .object(try JSONSigning.sign(object, entity: userID, keyID: "ed25519:\(signerKey)", with: signer))
    }

    private static func json<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValue(parsing: JSONEncoder().encode(value))
    }
}
