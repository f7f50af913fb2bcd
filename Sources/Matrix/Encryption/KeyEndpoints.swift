import Foundation
import MatrixCrypto

/// The requests of the end-to-end encryption module (spec "End-to-end
/// encryption", "Send-to-Device messaging") and of starting a direct chat.
/// Signed objects travel as `JSONValue`, so that every field their signer
/// wrote survives to be checked.
extension Endpoints {
    /// `POST /keys/upload`: this device's signed keys, new one-time keys, a fallback key.
    public static func uploadKeys(deviceKeys: JSONValue?, oneTimeKeys: [String: JSONValue] = [:],
                                  fallbackKeys: [String: JSONValue] = [:]) -> APIRequest {
        var body: [String: JSONValue] = [:]
        if let deviceKeys { body["device_keys"] = deviceKeys }
        if !oneTimeKeys.isEmpty { body["one_time_keys"] = .object(oneTimeKeys) }
        if !fallbackKeys.isEmpty { body["fallback_keys"] = .object(fallbackKeys) }
        return APIRequest(.post, "\(client)/keys/upload", body: encodeJSON(.object(body)), contentType: "application/json")
    }

    /// `POST /keys/query`: the devices and cross-signing keys of `users` (all their devices).
    public static func queryKeys(users: [String]) -> APIRequest {
        let devices = Dictionary(uniqueKeysWithValues: users.map { ($0, JSONValue.array([])) })
        return APIRequest(.post, "\(client)/keys/query", body: encodeJSON(.object(["device_keys": .object(devices)])),
                          contentType: "application/json")
    }

    /// `POST /keys/claim`: one one-time key of `algorithm` for each device named.
    public static func claimKeys(_ devices: [String: [String]], algorithm: String = "signed_curve25519") -> APIRequest {
        let wanted = devices.mapValues { ids in
            JSONValue.object(Dictionary(uniqueKeysWithValues: ids.map { ($0, JSONValue.string(algorithm)) }))
        }
        return APIRequest(.post, "\(client)/keys/claim", body: encodeJSON(.object(["one_time_keys": .object(wanted)])),
                          contentType: "application/json")
    }

    /// `PUT /sendToDevice/{type}/{txnId}`: `messages[user][device]` = content.
    public static func sendToDevice(type: String, transactionID: String,
                                    messages: [String: [String: JSONValue]]) -> APIRequest {
        let body = JSONValue.object(["messages": .object(messages.mapValues { .object($0) })])
        return APIRequest(.put, "\(client)/sendToDevice/\(escapePathSegment(type))/\(escapePathSegment(transactionID))",
                          body: encodeJSON(body), contentType: "application/json")
    }

    /// `PUT /rooms/{id}/send/{type}/{txnId}` with any content (an `m.room.encrypted` one).
    public static func sendEvent(roomID: String, type: String, transactionID: String, content: JSONValue) -> APIRequest {
        APIRequest(.put,
                   "\(client)/rooms/\(escapePathSegment(roomID))/send/\(escapePathSegment(type))/\(escapePathSegment(transactionID))",
                   body: encodeJSON(content), contentType: "application/json")
    }

    /// `POST /keys/device_signing/upload`: the account's cross-signing keys (master, self-signing, user-signing);
    /// `auth`: user-interactive auth's answer, when the server asked for one.
    public static func uploadCrossSigningKeys(master: JSONValue, selfSigning: JSONValue, userSigning: JSONValue,
                                              auth: JSONValue? = nil) -> APIRequest {
        var fields: [String: JSONValue] = ["master_key": master, "self_signing_key": selfSigning, "user_signing_key": userSigning]
        if let auth { fields["auth"] = auth }
        let body: JSONValue = .object(fields)
        return APIRequest(.post, "\(client)/keys/device_signing/upload", body: encodeJSON(body), contentType: "application/json")
    }

    /// `POST /keys/signatures/upload`: signatures of keys (`signed[user][key or device id]` = the object with them).
    public static func uploadSignatures(_ signed: [String: [String: JSONValue]]) -> APIRequest {
        APIRequest(.post, "\(client)/keys/signatures/upload", body: encodeJSON(.object(signed.mapValues { .object($0) })),
                   contentType: "application/json")
    }

    /// `GET /user/{userId}/account_data/{type}`; 404 when the account has none.
    public static func accountData(userID: String, type: String) -> APIRequest {
        APIRequest(.get, "\(client)/user/\(escapePathSegment(userID))/account_data/\(escapePathSegment(type))")
    }

    /// `PUT /user/{userId}/account_data/{type}`.
    public static func setAccountData(userID: String, type: String, content: JSONValue) -> APIRequest {
        APIRequest(.put, "\(client)/user/\(escapePathSegment(userID))/account_data/\(escapePathSegment(type))",
                   body: encodeJSON(content), contentType: "application/json")
    }

    /// `GET /rooms/{id}/members?not_membership=leave`: everyone joined or invited
    /// (the sync's members are lazy-loaded: only those who spoke).
    public static func currentMembers(roomID: String) -> APIRequest {
        APIRequest(.get, "\(client)/rooms/\(escapePathSegment(roomID))/members", query: [("not_membership", "leave")])
    }

    /// `POST /user_directory/search`.
    public static func searchUsers(_ term: String, limit: Int = 20) -> APIRequest {
        APIRequest(.post, "\(client)/user_directory/search",
                   body: encodeJSON(.object(["search_term": .string(term), "limit": .integer(Int64(limit))])),
                   contentType: "application/json")
    }

    /// A direct chat with `userID`, as Element makes one: `trusted_private_chat`,
    /// `is_direct`, and encrypted from its first event when `encrypted`.
    public static func createDirectChat(with userID: String, encrypted: Bool) -> APIRequest {
        var body: [String: JSONValue] = [
            "preset": "trusted_private_chat", "is_direct": true, "invite": .array([.string(userID)]),
        ]
        if encrypted {
            body["initial_state"] = .array([.object([
                "type": "m.room.encryption", "state_key": "",
                "content": .object(["algorithm": .string(MegolmAlgorithm.name)]),
            ])])
        }
        return APIRequest(.post, "\(client)/createRoom", body: encodeJSON(.object(body)), contentType: "application/json")
    }
}

/// The room-event encryption Hark speaks; the one to-device encryption.
public enum MegolmAlgorithm {
    public static let name = "m.megolm.v1.aes-sha2"
}

public enum OlmAlgorithm {
    public static let name = "m.olm.v1.curve25519-aes-sha2"
}

func encodeJSON(_ value: JSONValue) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try! encoder.encode(value)
}
