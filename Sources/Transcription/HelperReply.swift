import Foundation
import MessageStore

/// One line from the helper, decoded: a transcript in segments, or an error.
struct HelperReply: Decodable, Sendable {
    var id: String?
    var text: String?
    var segments: [TranscriptSegment]?
    var error: String?
    var cpu: Double?

    static func decode(_ line: Data) -> HelperReply? {
        try? JSONDecoder().decode(HelperReply.self, from: line)
    }
}

/// One request line to the helper.
struct HelperRequest: Encodable, Sendable {
    var id: String
    var path: String
    var language: String

    /// One line of JSON (JSONEncoder escapes any newline in a path).
    var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}
