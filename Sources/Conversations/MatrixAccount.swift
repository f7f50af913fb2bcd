import Foundation
import Matrix
import MessageStore

/// Signing in and out: the token goes to the Secret Service and nowhere
/// else; the store keeps only which account it is (user id, homeserver,
/// device), so that its rooms are known to belong to it.
@MainActor
public enum MatrixAccount {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case matrix(MatrixError)
        case secrets(SecretStoreError)
        case store(StoreError)

        public var description: String {
            switch self {
            case .matrix(let error): return error.description
            case .secrets(let error): return error.description
            case .store(let error): return error.description
            }
        }

        /// What goes behind "Details" (the server's code, what did not decode).
        public var details: String? {
            if case .matrix(let error) = self { return error.details }
            return nil
        }
    }

    /// Signs in with a password on the server `homeserverText` names (a URL,
    /// a server name, or a Matrix ID) and keeps the token in the keyring.
    /// With no Secret Service, nothing is signed in.
    public static func signIn(homeserverText: String, user: String, password: String, store: MessageStore,
                              secrets: SecretStore, http: HTTPSession = HTTPSession()) async throws(Failure) -> MatrixClient {
        // No keyring, no sign-in: ask before a session exists on the server.
        do { _ = try await secrets.token(for: Account(userID: "@probe:hark", homeserver: "hark")) } catch {
            throw .secrets(error)
        }
        let baseURL: String
        do { baseURL = try await MatrixClient.discover(homeserverText, http: http) } catch { throw .matrix(error) }
        let client = MatrixClient(homeserver: baseURL, http: http)
        let session: Session
        do { session = try await client.login(user: user, password: password) } catch { throw .matrix(error) }
        do {
            try await secrets.store(token: session.accessToken, for: Account(userID: session.userID, homeserver: baseURL))
        } catch {
            try? await client.logout()
            throw .secrets(error)
        }
        do {
            try store.matrix.setMatrixAccount(MatrixAccountRecord(userID: session.userID, homeserver: baseURL,
                                                           deviceID: session.deviceID))
        } catch {
            try? await client.logout()
            try? await secrets.clear(for: Account(userID: session.userID, homeserver: baseURL))
            throw .store(error)
        }
        return client
    }

    /// The client of the account the store names, its token from the keyring;
    /// nil when none is signed in (or the keyring has no token for it).
    public static func restore(store: MessageStore, secrets: SecretStore,
                               http: HTTPSession = HTTPSession()) async throws(Failure) -> MatrixClient? {
        guard let record = store.matrix.matrixAccount(), !store.matrix.isSignedOutByServer else { return nil }
        let token: String?
        do { token = try await secrets.token(for: Account(userID: record.userID, homeserver: record.homeserver)) } catch {
            throw .secrets(error)
        }
        guard let token else { return nil }
        return MatrixClient(homeserver: record.homeserver,
                            session: Session(homeserver: record.homeserver, userID: record.userID,
                                             deviceID: record.deviceID ?? "", accessToken: token),
                            http: http)
    }

    /// Signs out: the server ends the session (when it can be reached; a
    /// token it already revoked is fine), the keyring forgets the token, the
    /// store forgets the rooms. No message is lost.
    public static func signOut(store: MessageStore, secrets: SecretStore, client: MatrixClient?) async throws(Failure) {
        if let client, client.session != nil {
            do { try await client.logout() } catch .signedOutByServer {} catch .unreachable {} catch {
                throw .matrix(error)
            }
        }
        if let record = store.matrix.matrixAccount() {
            do { try await secrets.clear(for: Account(userID: record.userID, homeserver: record.homeserver)) } catch {
                throw .secrets(error)
            }
        }
        do { try store.matrix.setMatrixAccount(nil) } catch { throw .store(error) }
    }
}
