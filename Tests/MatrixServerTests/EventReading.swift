import Foundation
@testable import Matrix

extension MatrixClient {
    /// One event of a room as the server stores it (`GET /rooms/{id}/event/{eventId}`):
    /// what went over the wire, as any other client reads it.
    func eventJSON(roomID: String, eventID: String) async throws(MatrixError) -> Data {
        try await send(APIRequest(.get, "\(Endpoints.client)/rooms/\(escapePathSegment(roomID))/event/\(escapePathSegment(eventID))")).body
    }
}
