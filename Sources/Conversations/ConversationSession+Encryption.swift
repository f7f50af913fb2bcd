import Encryption
import Foundation
import Localization
import Matrix
import Subscriptions
import MessageStore

/// Setting the device's encryption up: once, before the first sync, by
/// whichever of the sync, the outbox and Set Up Encryption asks first.
extension ConversationSession {
    /// Whether encryption will be set up for this device (not tried yet, and
    /// the engine is there): a send into an encrypted room may be queued.
    var mayEncrypt: Bool {
        !encryptionTried && secrets != nil && CryptoEngineFiles.standard.isInstalled
    }

    /// The device's encryption, set up once before the first sync so that
    /// no to-device message (a room key) is ever synced past unread.
    /// The first caller sets it up; any other (the sync, the outbox, Set Up
    /// Encryption) waits for that: none goes on without it while it is made.
    func setUpEncryption() async {
        if let settingUpEncryption { return await settingUpEncryption.value }
        guard encryption == nil, !encryptionTried, let secrets else { return }
        encryptionTried = true
        let task = Task { await makeEncryption(secrets) }
        settingUpEncryption = task
        await task.value
        settingUpEncryption = nil
    }

    private func makeEncryption(_ secrets: SecretStore) async {
        do throws(RoomEncryption.Unavailable) {
            encryption = try await RoomEncryption.forDevice(of: client, store: store, secrets: secrets)
            encryptionUnavailable = nil
            // Encrypted rooms open up: their rows, titles and Record change.
            changes.send(.rooms)
        } catch {
            encryptionUnavailable = error
        }
    }

    /// Sets the encryption up now, tried again (the engine was installed
    /// since, or the keyring unlocked), with this device's keys published:
    /// encrypted rooms open in the running session, no restart. Nil once it
    /// is set up, else why it is not. Nothing was synced past unread before:
    /// without keys of its own, the device was sent none.
    @discardableResult
    public func setUpEncryptionNow() async -> RoomEncryption.Unavailable? {
        if encryption == nil {
            if settingUpEncryption == nil { encryptionTried = false }
            await setUpEncryption()
        }
        guard let encryption else { return encryptionUnavailable ?? .engineMissing }
        // When the server cannot be reached now, the next sync publishes them.
        _ = try? await encryption.prepare()
        return nil
    }
}
