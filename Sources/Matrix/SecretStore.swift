import Foundation
import CGLib
import CSecret
import GLibSupport
import Localization

/// Which Matrix account a stored token belongs to.
public struct Account: Sendable, Hashable {
    public var userID: String
    public var homeserver: String

    public init(userID: String, homeserver: String) {
        self.userID = userID
        self.homeserver = homeserver
    }
}

public enum SecretStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No Secret Service answers on the bus (no keyring running, or no session bus).
    case unavailable(detail: String)
    /// The Secret Service answered with an error (a refused prompt…).
    case failed(String)
    /// The keyring holding the account's token is locked, and it was not
    /// unlocked when asked (the prompt was dismissed or could not be shown).
    case locked

    public var description: String {
        switch self {
        case .unavailable:
            return tr("No Secret Service is running (such as GNOME Keyring or KWallet): Hark keeps your "
                      + "sign-in only there, so it cannot sign in without one.")
        case .failed(let message):
            return tr("The keyring refused to keep the sign-in: {reason}.", ["reason": message])
        case .locked:
            return tr("The keyring that keeps your sign-in is locked. Unlock it (in Passwords and Keys, or by "
                      + "unlocking your session) and try again: your account and messages are kept.")
        }
    }
}

/// Access tokens in the Secret Service (libsecret): the one place Hark keeps
/// them, never a plain file or the message store. Every call is asynchronous
/// over the session bus and answers on the main thread.
@MainActor
public final class SecretStore {
    private var service: UnsafeMutablePointer<SecretService>?

    /// The process is about to hold a token: from now on it can leave none
    /// in a core file.
    public init() {
        _ = hark_forbid_core_dumps()
    }

    isolated deinit {
        if let service { g_object_unref(service) }
    }

    /// What the keyring keeps for an account: its sign-in, and the key its encryption state is saved under.
    enum Kind {
        case token, pickleKey

        var schema: UnsafePointer<SecretSchema> {
            switch self {
            case .token: return hark_token_schema()
            case .pickleKey: return hark_pickle_key_schema()
            }
        }

        func label(_ account: Account) -> String {
            switch self {
            // TRANSLATORS: the name of Hark's entry in the keyring (GNOME Passwords shows it).
            case .token: return tr("Hark: Matrix sign-in of {user}", ["user": account.userID])
            // TRANSLATORS: the name of Hark's entry in the keyring (GNOME Passwords shows it).
            case .pickleKey: return tr("Hark: encryption key of {user}", ["user": account.userID])
            }
        }
    }

    public func store(token: String, for account: Account) async throws(SecretStoreError) {
        try await withService { service throws(SecretStoreError) in try await Self.store(token, .token, account, service) }
    }

    /// The 32-byte key the account's encryption state is saved under: made
    /// (from the system's random source) and kept the first time it is asked for.
    public func pickleKey(for account: Account) async throws(SecretStoreError) -> Data {
        try await withService { service throws(SecretStoreError) in
            if let text = try await Self.lookup(account, .pickleKey, service), let key = Data(base64Encoded: text),
               key.count == 32 {
                return key
            }
            if try await Self.hasLockedItem(account, service) { throw .locked }
            var key = Data(count: 32)
            let status = key.withUnsafeMutableBytes { getentropy($0.baseAddress, 32) }
            guard status == 0 else { throw .failed(tr("no random bytes for a new encryption key")) }
            try await Self.store(key.base64EncodedString(), .pickleKey, account, service)
            return key
        }
    }

    private static func store(_ secret: String, _ kind: Kind, _ account: Account,
                              _ service: UnsafeMutablePointer<SecretService>) async throws(SecretStoreError) {
        let attributes = attributes(account)
        defer { g_hash_table_unref(attributes) }
        let value = secret_value_new(secret, -1, "text/plain")
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        let label = kind.label(account)
        try await finish { callback, data in
            secret_service_store(service, kind.schema, attributes, hark_secret_collection_default(), label,
                                 value, nil, callback, data)
        } result: { result, error in
            secret_service_store_finish(service, result, error)
        }
    }

    /// The account's token, or nil when none is stored. A locked keyring is
    /// asked to unlock (the Secret Service shows its prompt); when it stays
    /// locked, this throws `.locked` rather than answering nil.
    public func token(for account: Account) async throws(SecretStoreError) -> String? {
        try await withService { service throws(SecretStoreError) in
            if let token = try await Self.lookup(account, .token, service) { return token }
            if try await Self.hasLockedItem(account, service) { throw .locked }
            return nil
        }
    }

    private static func lookup(_ account: Account, _ kind: Kind,
                               _ service: UnsafeMutablePointer<SecretService>) async throws(SecretStoreError) -> String? {
        let attributes = attributes(account)
        defer { g_hash_table_unref(attributes) }
        var token: String?
        try await finish { callback, data in
            secret_service_lookup(service, kind.schema, attributes, nil, callback, data)
        } result: { result, error in
            guard let value = secret_service_lookup_finish(service, result, error) else { return }
            token = secret_value_get_text(value).map { String(cString: $0) }
            secret_value_unref(UnsafeMutableRawPointer(value))
        }
        return token
    }

    /// Whether the keyring holds an item for the account that is locked
    /// (searched without unlocking anything).
    private static func hasLockedItem(_ account: Account,
                                      _ service: UnsafeMutablePointer<SecretService>) async throws(SecretStoreError) -> Bool {
        let attributes = attributes(account)
        defer { g_hash_table_unref(attributes) }
        var locked = false
        try await finish { callback, data in
            // No schema: a keyring restarted locked cannot match the schema's
            // name (gnome-keyring keeps it apart from the attributes until unlocked).
            secret_service_search(service, nil, attributes, SECRET_SEARCH_ALL, nil, callback, data)
        } result: { result, error in
            guard let items = secret_service_search_finish(service, result, error) else { return }
            var node: UnsafeMutablePointer<GList>? = items
            while let current = node {
                if let item = current.pointee.data, secret_item_get_locked(item.assumingMemoryBound(to: SecretItem.self)) != 0 {
                    locked = true
                }
                node = current.pointee.next
            }
            g_list_free_full(items, g_object_unref)
        }
        return locked
    }

    /// Forgets the account's token (nothing happens when none is stored).
    public func clear(for account: Account) async throws(SecretStoreError) {
        try await withService { service throws(SecretStoreError) in try await Self.clear(account, service) }
    }

    private static func clear(_ account: Account,
                              _ service: UnsafeMutablePointer<SecretService>) async throws(SecretStoreError) {
        let attributes = attributes(account)
        defer { g_hash_table_unref(attributes) }
        try await finish { callback, data in
            secret_service_clear(service, hark_token_schema(), attributes, nil, callback, data)
        } result: { result, error in
            _ = secret_service_clear_finish(service, result, error)
        }
    }

    // MARK: Plumbing

    private static func attributes(_ account: Account) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(table, g_strdup("user"), g_strdup(account.userID))
        g_hash_table_insert(table, g_strdup("homeserver"), g_strdup(account.homeserver))
        return table
    }

    /// The session bus's Secret Service (libsecret's shared proxy).
    private func connect() async throws(SecretStoreError) -> UnsafeMutablePointer<SecretService> {
        if let service { return service }
        var opened: UnsafeMutablePointer<SecretService>?
        do throws(SecretStoreError) {
            try await Self.finish { callback, data in
                secret_service_get(SECRET_SERVICE_NONE, nil, callback, data)
            } result: { result, error in
                opened = secret_service_get_finish(result, error)
            }
        } catch .failed(let detail) {
            // Whatever stops us reaching a service (no session bus…) means there is none to use.
            throw .unavailable(detail: detail)
        }
        guard let opened else { throw .unavailable(detail: tr("no service")) }
        service = opened
        return opened
    }

    /// Runs `body` on the service; when it is unavailable, forgets the proxy
    /// (libsecret shares one per process, and a keyring that went away and
    /// came back is not reached through the old one) and tries once more on
    /// a fresh one.
    private func withService<T>(_ body: @MainActor (UnsafeMutablePointer<SecretService>) async throws(SecretStoreError) -> T)
        async throws(SecretStoreError) -> T {
        do {
            return try await body(try await connect())
        } catch .unavailable {
            disconnect()
            do {
                return try await body(try await connect())
            } catch .unavailable(let detail) {
                disconnect()
                throw .unavailable(detail: detail)
            }
        }
    }

    private func disconnect() {
        if let service { g_object_unref(service) }
        service = nil
        secret_service_disconnect()
    }

    /// Starts a GIO async call (`start` gets the callback and its user data)
    /// and runs `result` with the finished call's result and a GError slot.
    private static func finish(
        start: (GAsyncReadyCallback, gpointer) -> Void,
        result: @escaping @MainActor (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Void
    ) async throws(SecretStoreError) {
        let failure: GLibError? = await withCheckedContinuation { (continuation: CheckedContinuation<GLibError?, Never>) in
            let box = HandlerBox<AsyncReadyHandler> { _, asyncResult in
                var error: UnsafeMutablePointer<GError>?
                result(asyncResult, &error)
                continuation.resume(returning: error.map { GLibError(consuming: $0) })
            }
            start(asyncReadyTrampoline, box.retainedPointer())
        }
        guard let failure else { return }
        if failure.domain == "g-dbus-error-quark", Self.noServiceCodes.contains(failure.code) {
            throw .unavailable(detail: failure.message)
        }
        // A keyring restarted under us forgot the session this process opened
        // with the one before ("The session wrapping the secret does not
        // exist", an error libsecret does not map): as good as unavailable,
        // and a fresh proxy opens a new session.
        if failure.domain == "g-io-error-quark", failure.code == Int32(G_IO_ERROR_DBUS_ERROR.rawValue) {
            throw .unavailable(detail: failure.message)
        }
        throw .failed(failure.message)
    }

    /// D-Bus errors that mean nobody provides the Secret Service.
    private static let noServiceCodes: Set<Int32> = [
        Int32(G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue), Int32(G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue),
        Int32(G_DBUS_ERROR_NO_SERVER.rawValue), Int32(G_DBUS_ERROR_DISCONNECTED.rawValue),
        Int32(G_DBUS_ERROR_UNKNOWN_METHOD.rawValue), Int32(G_DBUS_ERROR_UNKNOWN_OBJECT.rawValue),
        Int32(G_DBUS_ERROR_NO_REPLY.rawValue),
    ]
}
