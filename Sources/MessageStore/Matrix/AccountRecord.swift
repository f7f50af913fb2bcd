import Foundation

/// Which Matrix account the store's rooms belong to. Never its token: that
/// lives only in the Secret Service.
public struct MatrixAccountRecord: Sendable, Equatable {
    public var userID: String
    public var homeserver: String
    public var deviceID: String?

    public init(userID: String, homeserver: String, deviceID: String?) {
        self.userID = userID
        self.homeserver = homeserver
        self.deviceID = deviceID
    }
}

extension MatrixTables {
    private static let accountKeys = (user: "matrix.user", homeserver: "matrix.homeserver", device: "matrix.device",
                                      since: "matrix.since", signedOut: "matrix.signed_out_by_server",
                                      unsyncedDevice: "matrix.device_not_synced")

    /// The account last signed in (kept after the server signed it out, so it can be signed in again).
    public func matrixAccount() -> MatrixAccountRecord? {
        guard let user = store.meta(Self.accountKeys.user), let homeserver = store.meta(Self.accountKeys.homeserver) else { return nil }
        return MatrixAccountRecord(userID: user, homeserver: homeserver, deviceID: store.meta(Self.accountKeys.device))
    }

    /// Records the signed-in account; signing in as someone else (or signing
    /// out, nil) forgets the rooms and where the sync was, never a message.
    public func setMatrixAccount(_ account: MatrixAccountRecord?) throws(StoreError) {
        try store.checkWritable()
        let previous = matrixAccount()
        try store.inTransaction {
            if previous?.userID != account?.userID || previous?.homeserver != account?.homeserver {
                try store.database.query("DELETE FROM room_members")
                try store.database.query("DELETE FROM rooms")
                try store.database.query("DELETE FROM room_gaps")
                try store.database.query("DELETE FROM identity_pins")  // whom this account trusts, not the next
                try store.database.query("DELETE FROM meta WHERE key = ?", [.text(Self.accountKeys.since)])
            }
            for (key, value) in [(Self.accountKeys.user, account?.userID), (Self.accountKeys.homeserver, account?.homeserver),
                                 (Self.accountKeys.device, account?.deviceID)] {
                try store.setMeta(key, value)
            }
            try store.setMeta(Self.accountKeys.signedOut, nil)
            if account?.deviceID != previous?.deviceID {
                try store.setMeta(Self.accountKeys.unsyncedDevice, account == nil ? nil : "1")
            }
        }
    }

    /// Whether the account signed in as a new device that has not synced yet.
    /// Until it has, a send already uploaded waits: it may have reached the
    /// server from the old device, whose transaction id the new one's would
    /// not match, and the sync shows it.
    public var isDeviceUnsynced: Bool { store.meta(Self.accountKeys.unsyncedDevice) != nil }

    /// The new device synced.
    public func setDeviceSynced() throws(StoreError) {
        guard isDeviceUnsynced else { return }
        try store.checkWritable()
        try store.inTransaction { try store.setMeta(Self.accountKeys.unsyncedDevice, nil) }
    }

    /// Whether the server revoked the account's token (the user must sign in again).
    public var isSignedOutByServer: Bool { store.meta(Self.accountKeys.signedOut) != nil }

    public func setSignedOutByServer(_ signedOut: Bool) throws(StoreError) {
        try store.checkWritable()
        try store.inTransaction { try store.setMeta(Self.accountKeys.signedOut, signedOut ? "1" : nil) }
    }

    /// Where the next `/sync` starts (its `since`), nil before the first.
    public var syncToken: String? { store.meta(Self.accountKeys.since) }

    public func setSyncToken(_ token: String?) throws(StoreError) {
        try store.checkWritable()
        try store.inTransaction { try store.setMeta(Self.accountKeys.since, token) }
    }
}
