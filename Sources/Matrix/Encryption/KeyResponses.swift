import Foundation
import MatrixCrypto

/// `/keys/upload`'s answer: how many one-time keys of each algorithm the server holds.
public struct KeysUploadResponse: Decodable, Sendable, Equatable {
    public var oneTimeKeyCounts: [String: Int]
    enum CodingKeys: String, CodingKey { case oneTimeKeyCounts = "one_time_key_counts" }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        oneTimeKeyCounts = (try? container.decodeIfPresent([String: Int].self, forKey: .oneTimeKeyCounts)) ?? [:]
    }
}

/// One device's published keys, with the signed object kept whole for checking.
public struct DeviceKeys: Sendable, Equatable {
    public var userID: String
    public var deviceID: String
    public var algorithms: [String]
    /// `curve25519:DEVICE` and `ed25519:DEVICE`, as published.
    public var keys: [String: String]
    /// The device's name, from the unsigned part (the owner may change it; never trusted).
    public var displayName: String?
    /// The object as the server gave it: what signatures are checked against.
    public var signed: [String: JSONValue]

    public var curve25519: String? { keys["curve25519:\(deviceID)"] }
    public var ed25519: String? { keys["ed25519:\(deviceID)"] }

    /// The device's keys from `object`, when it is shaped as the spec says
    /// and names the user and device it was listed under; nil otherwise.
    public init?(_ object: JSONValue, userID: String, deviceID: String) {
        guard let fields = object.objectValue,
              fields["user_id"]?.stringValue == userID, fields["device_id"]?.stringValue == deviceID,
              let keys = fields["keys"]?.objectValue
        else { return nil }
        self.userID = userID
        self.deviceID = deviceID
        self.keys = keys.compactMapValues(\.stringValue)
        algorithms = fields["algorithms"]?.arrayValue?.compactMap(\.stringValue) ?? []
        displayName = fields["unsigned"]?["device_display_name"]?.stringValue
        signed = fields
    }
}

/// A cross-signing key (master, self-signing or user-signing), kept whole for checking.
public struct CrossSigningKey: Sendable, Equatable {
    public var userID: String
    public var usage: [String]
    /// The one public key (`ed25519:KEY` → KEY).
    public var publicKey: String
    public var signed: [String: JSONValue]

    public init?(_ object: JSONValue, userID: String) {
        guard let fields = object.objectValue, fields["user_id"]?.stringValue == userID,
              let keys = fields["keys"]?.objectValue, keys.count == 1,
              let (keyID, value) = keys.first, keyID.hasPrefix("ed25519:"), let key = value.stringValue,
              keyID == "ed25519:\(key)"
        else { return nil }
        self.userID = userID
        usage = fields["usage"]?.arrayValue?.compactMap(\.stringValue) ?? []
        publicKey = key
        signed = fields
    }
}

/// `/keys/query`'s answer: each user's devices and cross-signing keys; what
/// does not have the spec's shape (or names another user or device) is left out.
public struct KeysQueryResponse: Decodable, Sendable, Equatable {
    public var devices: [String: [String: DeviceKeys]]
    public var masterKeys: [String: CrossSigningKey]
    public var selfSigningKeys: [String: CrossSigningKey]
    public var userSigningKeys: [String: CrossSigningKey]
    /// Servers that did not answer.
    public var failures: [String]

    enum CodingKeys: String, CodingKey {
        case failures
        case deviceKeys = "device_keys"
        case masterKeys = "master_keys"
        case selfSigningKeys = "self_signing_keys"
        case userSigningKeys = "user_signing_keys"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func objects(_ key: CodingKeys) -> [String: JSONValue] {
            (try? container.decodeIfPresent([String: JSONValue].self, forKey: key)) ?? [:]
        }
        var devices: [String: [String: DeviceKeys]] = [:]
        for (user, listed) in objects(.deviceKeys) {
            var theirs: [String: DeviceKeys] = [:]
            for (device, object) in listed.objectValue ?? [:] {
                theirs[device] = DeviceKeys(object, userID: user, deviceID: device)
            }
            devices[user] = theirs
        }
        self.devices = devices
        func keys(_ key: CodingKeys) -> [String: CrossSigningKey] {
            objects(key).reduce(into: [:]) { found, entry in found[entry.key] = CrossSigningKey(entry.value, userID: entry.key) }
        }
        masterKeys = keys(.masterKeys)
        selfSigningKeys = keys(.selfSigningKeys)
        userSigningKeys = keys(.userSigningKeys)
        failures = objects(.failures).keys.sorted()
    }
}

/// `/keys/claim`'s answer: for each device, its one claimed key (`signed_curve25519:ID` → the signed key object).
public struct KeysClaimResponse: Decodable, Sendable, Equatable {
    public struct ClaimedKey: Sendable, Equatable {
        public var keyID: String
        /// The signed key object (`{key, signatures}`).
        public var signed: [String: JSONValue]
        public var key: String? { signed["key"]?.stringValue }
    }

    public var oneTimeKeys: [String: [String: ClaimedKey]]
    enum CodingKeys: String, CodingKey { case oneTimeKeys = "one_time_keys" }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let users = (try? container.decodeIfPresent([String: JSONValue].self, forKey: .oneTimeKeys)) ?? [:]
        var claimed: [String: [String: ClaimedKey]] = [:]
        for (user, devices) in users {
            for (device, keys) in devices.objectValue ?? [:] {
                guard let (keyID, object) = keys.objectValue?.first, let signed = object.objectValue else { continue }
                claimed[user, default: [:]][device] = ClaimedKey(keyID: keyID, signed: signed)
            }
        }
        oneTimeKeys = claimed
    }
}

/// `/user_directory/search`'s answer.
public struct UserDirectoryResults: Decodable, Sendable, Equatable {
    public struct User: Decodable, Sendable, Equatable {
        public var userID: String
        public var displayName: String?
        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case displayName = "display_name"
        }
    }
    public var results: [User]
    public var limited: Bool

    enum CodingKeys: String, CodingKey { case results, limited }
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = (try? container.decodeIfPresent([User].self, forKey: .results)) ?? []
        limited = (try? container.decodeIfPresent(Bool.self, forKey: .limited)) ?? false
    }
}
