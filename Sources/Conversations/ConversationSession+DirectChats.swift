import Foundation
import Localization
import Matrix
import MatrixCrypto
import MessageStore

extension ConversationSession {
    /// The direct chat with `userID`: the one the account's `m.direct` lists
    /// (and Hark knows, joined or invited), else a new one made as Element
    /// makes it (encrypted from its first event when the person has device
    /// keys) and added to `m.direct`. Its room id.
    public func directChat(with userID: String) async throws(ConversationError) -> String {
        guard Self.looksLikeUserID(userID) else { throw .notAUser(userID) }
        guard userID != self.userID else { throw .notAUser(userID) }
        let direct: JSONValue?
        do { direct = try await client.accountData(type: "m.direct") } catch { throw .matrix(error) }
        for roomID in direct?[userID]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            if let room = try? store.matrix.room(roomID), room.membership != .leave { return roomID }
        }
        // As Element does, the person is looked up first: no room is made for someone who does
        // not exist, and the room is called by their name from the start, not their Matrix ID.
        let name: String?
        do { name = try await client.profile(of: userID).displayName } catch .server(404, _, _) {
            throw .noSuchUser(userID)
        } catch .server {
            name = nil  // a server that keeps profiles to itself: the first sync names them
        } catch { throw .matrix(error) }
        let roomID: String
        do {
            let devices = try await client.queryKeys(users: [userID]).devices[userID] ?? [:]
            roomID = try await client.createDirectChat(with: userID, encrypted: !devices.isEmpty)
            var lists = direct?.objectValue ?? [:]
            lists[userID] = .array((lists[userID]?.arrayValue ?? []) + [.string(roomID)])
            try await client.setAccountData(type: "m.direct", content: .object(lists))
            let encrypted = !devices.isEmpty
            try? store.matrix.updateRoom(RoomUpdate(id: roomID, membership: .join, isEncrypted: encrypted))
            try? store.matrix.setMember(roomID: roomID, userID: userID, displayName: name, membership: "invite")
        } catch {
            throw .matrix(error)
        }
        changes.send(.rooms)
        return roomID
    }

    /// The people the server's user directory finds for `term` (by name or
    /// Matrix ID; the account itself left out), as the directory orders them.
    public func searchPeople(_ term: String) async throws(ConversationError) -> [Person] {
        let found: UserDirectoryResults
        do { found = try await client.searchUsers(term) } catch { throw .matrix(error) }
        return found.results.filter { $0.userID != userID }.map { Person(userID: $0.userID, displayName: $0.displayName) }
    }

    /// `@local:server`, as the spec's grammar has it loosely (the server checks the rest).
    public nonisolated static func looksLikeUserID(_ text: String) -> Bool {
        guard text.hasPrefix("@"), let colon = text.firstIndex(of: ":") else { return false }
        let local = text[text.index(after: text.startIndex)..<colon], server = text[text.index(after: colon)...]
        return !local.isEmpty && !server.isEmpty && text.count <= 255 && !text.contains(where: \.isWhitespace)
    }
}
