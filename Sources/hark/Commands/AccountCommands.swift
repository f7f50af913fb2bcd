import Conversations
import Foundation
import Localization
import Matrix
import MessageStore

/// `hark account login --homeserver URL --user NAME`: the password from
/// standard input when it is not a terminal, else asked for without echo.
@MainActor
func runAccountLogin(homeserver: String, user: String) -> Int32 {
    guard let password = readPassword() else {
        printFailure(tr("no password given (type it, or pipe it into standard input)"))
        return 1
    }
    guard let store = openStore() else { return 1 }
    return runOnLoop {
        do {
            let client = try await MatrixAccount.signIn(homeserverText: homeserver, user: user, password: password,
                                                        store: store, secrets: SecretStore())
            print(tr("Signed in as {user} on {server}.", ["user": client.session?.userID ?? user, "server": client.displayName]))
            return 0
        } catch {
            printFailure(error)
            return 1
        }
    }
}

/// `hark account logout`: the server ends the session, the keyring forgets the token.
@MainActor
func runAccountLogout() -> Int32 {
    guard let store = openStore() else { return 1 }
    guard let record = store.matrix.matrixAccount() else {
        printFailure(tr("not signed in to a Matrix account"))
        return 1
    }
    return runOnLoop {
        let secrets = SecretStore()
        let client = try? await MatrixAccount.restore(store: store, secrets: secrets)
        do {
            try await MatrixAccount.signOut(store: store, secrets: secrets, client: client)
            print(tr("Signed out of {user}.", ["user": record.userID]))
            return 0
        } catch {
            printFailure(error)
            return 1
        }
    }
}

/// `hark account status [--json]`: who is signed in, and what waits to be sent.
@MainActor
func runAccountStatus(json: Bool) -> Int32 {
    guard let store = openStore() else { return 1 }
    return runOnLoop {
        let record = store.matrix.matrixAccount()
        var state = "signed_out"
        var problem: String?
        if let record {
            if store.matrix.isSignedOutByServer {
                state = "signed_out_by_server"
            } else {
                do throws(SecretStoreError) {
                    let token = try await SecretStore().token(for: Account(userID: record.userID, homeserver: record.homeserver))
                    state = token == nil ? "signed_out" : "signed_in"
                } catch .locked {
                    state = "keyring_locked"
                    problem = SecretStoreError.locked.description
                } catch {
                    state = "keyring_unavailable"
                    problem = error.description
                }
            }
        }
        let queued = (try? store.matrix.queuedSends().count) ?? 0
        // Whether the account's identity signed this device (nil: not signed in, or the server did not say).
        var crossSigned: Bool?
        if state == "signed_in", let record, let deviceID = record.deviceID,
           let client = try? await MatrixAccount.restore(store: store, secrets: SecretStore()) {
            crossSigned = try? await CrossSigning(client: client, userID: record.userID, deviceID: deviceID)
                .status().deviceCrossSigned
        }
        if json {
            var object = "{\"cross_signed\":" + (crossSigned.map { $0 ? "true" : "false" } ?? "null")
                + ",\"device_id\":" + (record?.deviceID.map { JSONText.string($0) } ?? "null")
                + ",\"homeserver\":" + (record.map { JSONText.string($0.homeserver) } ?? "null")
                + ",\"queued\":\(queued),\"state\":" + JSONText.string(state)
                + ",\"user_id\":" + (record.map { JSONText.string($0.userID) } ?? "null") + "}"
            if let problem { object.insert(contentsOf: ",\"problem\":" + JSONText.string(problem), at: object.index(before: object.endIndex)) }
            print(object)
        } else {
            switch state {
            case "signed_in":
                print(tr("Signed in as {user} on {server}.", ["user": record!.userID, "server": record!.homeserver]))
                if crossSigned == false {
                    print(tr("This device ({device}) is not verified: 'hark account recover' verifies it with the recovery key.",
                             ["device": record!.deviceID ?? ""]))
                }
            case "signed_out_by_server":
                print(tr("Signed out by the server ({user}): sign in again with 'hark account login'; nothing was lost.",
                         ["user": record!.userID]))
            case "keyring_unavailable": print(tr("Cannot tell: {reason}", ["reason": problem ?? ""]))
            case "keyring_locked": print(tr("{user} on {server}: {reason}",
                                            ["user": record!.userID, "server": record!.homeserver, "reason": problem ?? ""]))
            default: print(tr("Not signed in."))
            }
            if queued > 0 {
                print(trn("{count} message waits to be sent ('hark sync' sends it).",
                          "{count} messages wait to be sent ('hark sync' sends them).", queued))
            }
        }
        return 0
    }
}

/// The password: piped in (the whole of standard input, less one final
/// newline), or typed at the terminal without echo.
private func readPassword() -> String? {
    if isatty(STDIN_FILENO) == 0 {
        var text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        if text.hasSuffix("\r\n") { text.removeLast(2) } else if text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? nil : text
    }
    FileHandle.standardError.write(Data((tr("Password:") + " ").utf8))
    var settings = termios()
    tcgetattr(STDIN_FILENO, &settings)
    var silent = settings
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    defer {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    guard let line = readLine(strippingNewline: true), !line.isEmpty else { return nil }
    return line
}
