import Conversations
import Encryption
import Foundation
import HelperProcesses
import Localization
import Matrix
import MessageStore

/// `hark account recover [--new]`: this device verified with the recovery key
/// or passphrase read from standard input (prints `verified`), or the
/// account's identity made and its recovery key printed once (the password,
/// for a server that asks for it first, from `HARK_PASSWORD`).
@MainActor
func runAccountRecover(new: Bool) -> Int32 {
    let typed = new ? "" : String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    guard new || !typed.isEmpty else {
        printFailure(tr("no recovery key given: pipe it (or the passphrase) into standard input"))
        return 1
    }
    guard let store = openStore() else { return 1 }
    return runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        // The device's keys are on the server before anything signs them.
        guard await refreshEncryption(session) else { return 1 }
        guard let own = session.client.session else { return 1 }
        let crossSigning = CrossSigning(client: session.client, userID: own.userID, deviceID: own.deviceID, store: store)
        do throws(CrossSigning.Failure) {
            if new {
                let password = ProcessInfo.processInfo.environment["HARK_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
                let recoveryKey = try await crossSigning.createIdentity(password: password)
                print(recoveryKey)
                FileHandle.standardError.write(Data((tr("This is the account's recovery key: keep it somewhere safe. "
                    + "Hark shows it only now; it verifies your other devices.") + "\n").utf8))
            } else {
                try await crossSigning.verifyThisDevice(with: typed)
                print("verified")
            }
            return 0
        } catch .passwordNeeded {
            printFailure(tr("The server asks for your password before it takes the new identity keys: "
                + "give it in the environment variable HARK_PASSWORD."))
            return 1
        } catch {
            printFailure(error)
            return 1
        }
    }
}

/// One sync with the encryption set up (the device's keys uploaded); says why when it cannot be.
@MainActor
private func refreshEncryption(_ session: ConversationSession) async -> Bool {
    do {
        try await session.syncOnce()
    } catch {
        printFailure(error)
        return false
    }
    guard session.encryption != nil else {
        printFailure(session.encryptionUnavailable.map(describe) ?? tr("encryption is not set up"))
        return false
    }
    return true
}

/// Why a device has no encryption, as a sentence.
func describe(_ unavailable: RoomEncryption.Unavailable) -> String {
    switch unavailable {
    case .engineMissing: return tr("Hark's encryption engine is not installed: run 'hark encryption install'.")
    case .keyring(let error): return error.description
    }
}

/// `hark dm USER_ID`: the direct chat with someone, found or made; its room id.
@MainActor
func runDirectChat(userID: String) -> Int32 {
    guard let store = openStore() else { return 1 }
    return runOnLoop {
        guard let session = await signedInSession(store) else { return 1 }
        do throws(ConversationError) {
            print(try await session.directChat(with: userID))
            return 0
        } catch {
            printFailure(error)
            return 1
        }
    }
}

/// `hark encryption install`: the engine installed (or checked) where Hark
/// looks for it, by the installer the window's Set Up Encryption runs; its
/// progress, in sentences, on standard error.
@MainActor
func runEncryptionInstall() -> Int32 {
    let installation: EngineInstallation
    do {
        installation = try CryptoEngineFiles.standard.startInstall()
    } catch {
        printFailure(error.reason)
        return 1
    }
    var said = ""
    installation.onProgress = { progress in
        guard progress.text != said else { return }
        said = progress.text
        FileHandle.standardError.write(Data((progress.text + "\n").utf8))
    }
    return runOnLoop {
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<EngineInstallation.Outcome, Never>) in
                installation.onFinish = { finished.resume(returning: $0) }
            }
        } onCancel: {
            Task { @MainActor in installation.cancel() }
        }
        switch outcome {
        case .ready:
            print(tr("Encryption is installed: Hark reads and writes encrypted rooms from now on."))
            return 0
        case .failed(let failure):
            printFailure(failure.sentence(.encryption))
            return 1
        case .cancelled:
            return 130
        }
    }
}
