import Foundation
import MatrixCrypto

/// The encryption module's calls; what they mean is decided by the caller
/// (Conversations' encryption), which holds no network code of its own.
extension MatrixClient {
    @discardableResult
    public func uploadKeys(deviceKeys: JSONValue?, oneTimeKeys: [String: JSONValue] = [:],
                           fallbackKeys: [String: JSONValue] = [:]) async throws(MatrixError) -> KeysUploadResponse {
        try await call(Endpoints.uploadKeys(deviceKeys: deviceKeys, oneTimeKeys: oneTimeKeys, fallbackKeys: fallbackKeys))
    }

    public func queryKeys(users: [String]) async throws(MatrixError) -> KeysQueryResponse {
        try await call(Endpoints.queryKeys(users: users))
    }

    public func claimKeys(_ devices: [String: [String]]) async throws(MatrixError) -> KeysClaimResponse {
        try await call(Endpoints.claimKeys(devices))
    }

    /// Sends to-device messages; an empty `messages` sends nothing.
    public func sendToDevice(type: String, transactionID: String = MatrixClient.newTransactionID(),
                             messages: [String: [String: JSONValue]]) async throws(MatrixError) {
        guard !messages.isEmpty else { return }
        let _: Empty = try await call(Endpoints.sendToDevice(type: type, transactionID: transactionID, messages: messages))
    }

    /// Sends an already encrypted event into a room; the event id. The same
    /// `transactionID` gives the same event.
    public func sendEncrypted(roomID: String, transactionID: String, content: JSONValue) async throws(MatrixError) -> String {
        let answer: EventIDResponse = try await call(Endpoints.sendEvent(roomID: roomID, type: "m.room.encrypted",
                                                                         transactionID: transactionID, content: content))
        return answer.eventID
    }

    /// Publishes the account's cross-signing keys. A server that asks for the
    /// password first (user-interactive auth: Synapse, to replace keys it
    /// has) gets `password`; without one it refuses with `.server(401, …)`,
    /// a wrong one with `.wrongPassword`.
    public func uploadCrossSigningKeys(master: JSONValue, selfSigning: JSONValue, userSigning: JSONValue,
                                       password: String? = nil) async throws(MatrixError) {
        try await sendWithPassword(password) { auth in
            Endpoints.uploadCrossSigningKeys(master: master, selfSigning: selfSigning, userSigning: userSigning, auth: auth)
        }
    }

    /// Publishes signatures; the server's refusals of single ones come back as `failures`.
    public func uploadSignatures(_ signed: [String: [String: JSONValue]]) async throws(MatrixError) -> JSONValue {
        let answer: JSONValue = try await call(Endpoints.uploadSignatures(signed))
        return answer["failures"] ?? .object([:])
    }

    /// The account's `type` data; nil when it has none.
    public func accountData(type: String) async throws(MatrixError) -> JSONValue? {
        guard let userID = session?.userID else { throw .notSignedIn }
        do {
            let value: JSONValue = try await call(Endpoints.accountData(userID: userID, type: type))
            return value
        } catch .server(404, _, _) {
            return nil
        }
    }

    public func setAccountData(type: String, content: JSONValue) async throws(MatrixError) {
        guard let userID = session?.userID else { throw .notSignedIn }
        let _: Empty = try await call(Endpoints.setAccountData(userID: userID, type: type, content: content))
    }

    /// The users joined to or invited into a room (who an encrypted message is for).
    public func currentMembers(roomID: String) async throws(MatrixError) -> [String] {
        let page: MembersPage = try await call(Endpoints.currentMembers(roomID: roomID))
        return page.members.compactMap { event in
            guard case .member(let membership, _) = event.content, membership == "join" || membership == "invite" else { return nil }
            return event.stateKey
        }
    }

    public func searchUsers(_ term: String, limit: Int = 20) async throws(MatrixError) -> UserDirectoryResults {
        try await call(Endpoints.searchUsers(term, limit: limit))
    }

    /// A new direct chat with `userID` (encrypted when asked); its id. The
    /// caller records it in `m.direct`.
    public func createDirectChat(with userID: String, encrypted: Bool) async throws(MatrixError) -> String {
        let room: RoomIDResponse = try await call(Endpoints.createDirectChat(with: userID, encrypted: encrypted))
        return room.roomID
    }
}

/// `/members`' answer: the member events.
struct MembersPage: Decodable {
    var members: [RoomEvent]
    enum CodingKeys: String, CodingKey { case chunk }
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        members = (try? container.decodeIfPresent([RoomEvent].self, forKey: .chunk)) ?? []
    }
}
