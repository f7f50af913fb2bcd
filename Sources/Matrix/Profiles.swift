import Foundation

/// `GET /profile/{userId}`: a person's public name, and whether they exist at all.
extension Endpoints {
    public static func profile(userID: String) -> APIRequest {
        APIRequest(.get, "\(client)/profile/\(escapePathSegment(userID))")
    }
}

/// A profile's answer: the name the person chose (nil: none).
public struct Profile: Decodable, Sendable, Equatable {
    public var displayName: String?

    enum CodingKeys: String, CodingKey { case displayName = "displayname" }
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = (try? container.decodeIfPresent(String.self, forKey: .displayName)) ?? nil
    }
}

extension MatrixClient {
    /// `userID`'s profile; `.server(404, "M_NOT_FOUND", …)` when there is no such user.
    public func profile(of userID: String) async throws(MatrixError) -> Profile {
        try await call(Endpoints.profile(userID: userID))
    }
}
