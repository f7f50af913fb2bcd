import Encryption
import Foundation
import Matrix
import MessageStore

extension RoomEncryption {
    /// Why a signed-in device has no encryption.
    public enum Unavailable: Error, Equatable, Sendable {
        /// The engine is not installed (`install-crypto-engine`): encrypted rooms stay closed.
        case engineMissing
        /// The keyring would not give (or keep) the key the state is saved under.
        case keyring(SecretStoreError)
    }

    /// The encryption of the signed-in device of `client`: its engine's state
    /// in the store's folder (`encryption/DEVICE`, 0700), saved under a key
    /// that lives only in the Secret Service.
    public static func forDevice(of client: MatrixClient, store: MessageStore, secrets: SecretStore,
                                 files: CryptoEngineFiles = .standard) async throws(Unavailable) -> RoomEncryption {
        guard let session = client.session else { throw .keyring(.failed("not signed in")) }
        guard files.isInstalled else { throw .engineMissing }
        let pickleKey: Data
        do {
            pickleKey = try await secrets.pickleKey(for: Account(userID: session.userID, homeserver: session.homeserver))
        } catch {
            throw .keyring(error)
        }
        // The server names the device: never let its name reach outside the folder.
        let name = String(session.deviceID.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
            .map(Character.init).prefix(64))
        let folder = store.folder.appendingPathComponent("encryption").appendingPathComponent(name.isEmpty ? "device" : name)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let engine = CryptoEngine(files: files, stateFolder: folder.path, pickleKey: pickleKey)
        return RoomEncryption(engine: engine, client: client, store: store, userID: session.userID,
                              deviceID: session.deviceID)
    }
}
