import Foundation
import MessageStore

/// Someone a conversation can be started with: found in the server's user
/// directory, or a Matrix ID typed in full.
public struct Person: Sendable, Equatable {
    public var userID: String
    /// The name they chose (nil: none, or not known).
    public var displayName: String?

    public init(userID: String, displayName: String? = nil) {
        self.userID = userID
        self.displayName = displayName
    }

    /// What a result shows first: their name on one line and cut
    /// (`ReceivedText`: the network's text), else their Matrix ID.
    public var title: String { shownName ?? ReceivedText.shown(userID) }

    /// Under the name, the Matrix ID (which tells two people of one name apart); nil without a name.
    public var subtitle: String? { shownName == nil ? nil : ReceivedText.shown(userID) }

    private var shownName: String? {
        guard let name = displayName.map(ReceivedText.shown), !name.isEmpty else { return nil }
        return name
    }
}

/// What is typed into New Conversation: nothing yet, a whole Matrix ID
/// (offered as it is, at once), or words the server's user directory is
/// searched for.
public enum PeopleQuery: Sendable, Equatable {
    case empty
    case userID(String)
    case words(String)

    public init(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty {
            self = .empty
        } else if ConversationSession.looksLikeUserID(text) {
            self = .userID(text)
        } else {
            self = .words(text)
        }
    }

    /// What the directory is asked for: the words, or the Matrix ID (for
    /// the person's name); nil for nothing typed.
    public var searchTerm: String? {
        switch self {
        case .empty: return nil
        case .userID(let text), .words(let text): return text
        }
    }

    /// The people offered, given what the directory `found`: a typed
    /// Matrix ID first (with its name when the directory knows it), then the
    /// others found; never the account itself (`me`), never anyone twice.
    public func offered(found: [Person], me: String) -> [Person] {
        var offered: [Person] = []
        if case .userID(let typed) = self {
            offered.append(found.first(where: { $0.userID == typed }) ?? Person(userID: typed))
        }
        for person in found where !offered.contains(where: { $0.userID == person.userID }) {
            offered.append(person)
        }
        return offered.filter { $0.userID != me }
    }
}
