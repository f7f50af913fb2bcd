@testable import Conversations
import Foundation
import Matrix
import XCTest

/// The outbox's retry policy and how a received event becomes a stored message: pure.
final class PolicyAndMappingTests: XCTestCase {
    func testAnUnreachableServerIsTriedLaterAndLongerUntilTheSendHasWaitedADay() {
        let policy = RetryPolicy()
        let down = MatrixError.unreachable(homeserver: "example.org", reason: "refused")
        XCTAssertEqual((1...5).map { policy.decision(after: down, attempt: $0, waited: 60) },
                       [2, 4, 8, 16, 32].map { RetryPolicy.Decision.retry(after: $0) })
        XCTAssertEqual(policy.decision(after: down, attempt: 500, waited: 23 * 3600), .retry(after: 60),
                       "however many tries: the server could not be reached, it refused nothing")
        XCTAssertEqual(policy.decision(after: down, attempt: 2, waited: 24 * 3600), .expired, "\"Not sent\" after a day")
        XCTAssertEqual(policy.decision(after: .server(status: 502, code: "HTTP 502", message: ""), attempt: 40, waited: 600),
                       .retry(after: 60), "a proxy whose server is down")
        XCTAssertEqual(policy.decision(after: .server(status: 500, code: "M_UNKNOWN", message: ""), attempt: 1, waited: 0),
                       .retry(after: 2))
        XCTAssertEqual(policy.backoff(20), 60, "never longer than a minute")
    }

    func testTheServersWaitIsHonouredAndRefusalsAreFinal() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.decision(after: .rateLimited(retryAfterMilliseconds: 3_500), attempt: 1, waited: 0),
                       .retry(after: 3.5))
        XCTAssertEqual(policy.decision(after: .signedOutByServer, attempt: 1, waited: 0), .stop)
        XCTAssertEqual(policy.decision(after: .encryptedRoom, attempt: 1, waited: 0), .giveUp)
        XCTAssertEqual(policy.decision(after: .server(status: 403, code: "M_FORBIDDEN", message: "not in room"),
                                       attempt: 1, waited: 0), .giveUp)
        XCTAssertEqual(policy.decision(after: .server(status: 413, code: "M_TOO_LARGE", message: ""), attempt: 1, waited: 0),
                       .giveUp)
    }

    /// A 429 once parked a send for 115 days (its `retry_after_ms`), or with
    /// 0 sent it again at once, for ever.
    func testARateLimitWaitsAtMostFiveMinutesNeverAtOnceAndCountsTowardGivingUp() {
        let policy = RetryPolicy()
        let huge = MatrixError.rateLimited(retryAfterMilliseconds: 10_000_000_000)
        XCTAssertEqual(policy.decision(after: huge, attempt: 1, waited: 0), .retry(after: 5 * 60))
        XCTAssertEqual(policy.decision(after: .rateLimited(retryAfterMilliseconds: 0), attempt: 1, waited: 0),
                       .retry(after: 2), "the backoff, not at once")
        XCTAssertEqual((1...5).map { policy.decision(after: .rateLimited(retryAfterMilliseconds: 0), attempt: $0, waited: 60) },
                       [2, 4, 8, 16, 32].map { RetryPolicy.Decision.retry(after: $0) })
        XCTAssertEqual(policy.decision(after: .rateLimited(retryAfterMilliseconds: nil), attempt: 3, waited: 0),
                       .retry(after: 8))
        XCTAssertEqual(policy.decision(after: .rateLimited(retryAfterMilliseconds: -5), attempt: 1, waited: 0),
                       .retry(after: 2))
        XCTAssertEqual(policy.decision(after: .rateLimited(retryAfterMilliseconds: 3_500), attempt: 99, waited: 0),
                       .retry(after: 60), "the tries so far count, as for any failure")
        XCTAssertEqual(policy.decision(after: huge, attempt: 40, waited: 24 * 3600), .expired,
                       "\"Not sent\" after a day, with Retry, as any failure")
    }

    func testOfflineTheSyncAsksAgainWithinSecondsSoOfflineEndsSoonAfterTheServerIsBack() {
        let policy = RetryPolicy()
        XCTAssertEqual((1...5).map { policy.reconnectDelay(afterFailures: $0) }, [1, 2, 4, 5, 5])
        XCTAssertEqual(policy.reconnectDelay(afterFailures: 10_000), 5)
    }

    func testAReceivedFileIsStoredUnderItsTypesExtension() {
        XCTAssertEqual(IncomingAudioMapping.fileExtension(mimeType: "audio/ogg; codecs=opus", name: "x.mp3"), "ogg")
        XCTAssertEqual(IncomingAudioMapping.fileExtension(mimeType: "audio/mpeg", name: nil), "mp3")
        XCTAssertEqual(IncomingAudioMapping.fileExtension(mimeType: nil, name: "Song.FLAC"), "flac")
        XCTAssertEqual(IncomingAudioMapping.fileExtension(mimeType: "application/octet-stream", name: "notes"), "audio")
        XCTAssertEqual(IncomingAudioMapping.fileExtension(mimeType: nil, name: "../../etc/passwd"), "audio")
        XCTAssertEqual(IncomingAudioMapping.fileExtension(mimeType: nil, name: "a.tar/../x"), "audio")
    }

    func testAnEventBecomesAMessageWithItsSenderTimeAndWaveform() throws {
        let json = """
            {"type": "m.room.message", "event_id": "$e", "sender": "@bob:example.org", "origin_server_ts": 1700000000500,
             "content": {"msgtype": "m.audio", "body": "", "url": "mxc://example.org/m",
                         "info": {"mimetype": "audio/ogg", "duration": 2500},
                         "org.matrix.msc1767.audio": {"duration": 2500, "waveform": [0, 512, 1024, 2000]},
                         "org.matrix.msc3245.voice": {}}}
            """
        let event = try JSONDecoder().decode(RoomEvent.self, from: Data(json.utf8))
        guard case .message(let content) = event.content else { return XCTFail("not a message") }
        let incoming = try XCTUnwrap(IncomingAudioMapping.incoming(event, content, roomID: "!r", unread: true))
        XCTAssertEqual(incoming.title, "Voice message", "an empty body says what it is")
        XCTAssertEqual(incoming.sentAt.timeIntervalSince1970, 1_700_000_000.5)
        XCTAssertEqual(incoming.duration, 2.5)
        XCTAssertEqual(incoming.mediaURL, "mxc://example.org/m")
        XCTAssertEqual(incoming.levels?.peak.count, 4)
        XCTAssertEqual(incoming.sender, "@bob:example.org")

        XCTAssertNil(incoming.senderTranscript)

        let captioned = try JSONDecoder().decode(RoomEvent.self, from: Data("""
            {"type": "m.room.message", "event_id": "$c", "sender": "@bob:example.org",
             "content": {"msgtype": "m.audio", "body": "Moved to Thursday", "filename": "Dentist.ogg",
                         "url": "mxc://example.org/c", "org.matrix.msc3245.voice": {}}}
            """.utf8))
        guard case .message(let words) = captioned.content else { return XCTFail("not a message") }
        let withWords = try XCTUnwrap(IncomingAudioMapping.incoming(captioned, words, roomID: "!r", unread: true))
        XCTAssertEqual(withWords.senderTranscript, "Moved to Thursday")
        XCTAssertEqual(withWords.title, "Dentist", "its title from the file's name, less the audio extension")

        let text = try JSONDecoder().decode(RoomEvent.self, from: Data("""
            {"type": "m.room.message", "event_id": "$t", "sender": "@bob:example.org",
             "content": {"msgtype": "m.text", "body": "hi"}}
            """.utf8))
        guard case .message(let plain) = text.content else { return XCTFail("not a message") }
        XCTAssertNil(IncomingAudioMapping.incoming(text, plain, roomID: "!r", unread: true), "only audio lands")
    }
}
