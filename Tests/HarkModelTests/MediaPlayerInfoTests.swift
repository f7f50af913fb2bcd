import Foundation
import HarkModel
import HarkTestSupport
import MessageStore
import XCTest

/// What the desktop's media controls are told, without D-Bus: track ids
/// that are object paths and lead back to their message, the metadata of a
/// message (own or received, in a room or among the recordings), the status
/// and the speeds a client may set; and what the session is kept from.
final class MediaPlayerInfoTests: XCTestCase {
    func testATrackIDIsAnObjectPathThatLeadsBackToItsMessage() {
        for id in ["3F2A-77B1", "$event:example.org", "a_b", "ünïcode", ""] {
            let path = MediaPlayerInfo.trackID(of: id)
            XCTAssertTrue(path.hasPrefix("/"))
            XCTAssertTrue(path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "/" || $0 == "_") }, path)
            XCTAssertFalse(path.hasSuffix("/") && !id.isEmpty, path)
            XCTAssertEqual(MediaPlayerInfo.messageID(fromTrackID: path), id)
        }
        XCTAssertNil(MediaPlayerInfo.messageID(fromTrackID: MediaPlayerInfo.noTrack))
        XCTAssertNil(MediaPlayerInfo.messageID(fromTrackID: MediaPlayerInfo.trackID(of: "x") + "_Z"))
    }

    func testTheMetadataOfOwnAndReceivedMessages() throws {
        let scratch = try ScratchFolder()
        let store = try MessageStore(folder: scratch.url)
        var message = try store.beginRecording(title: "Dentist", at: Date())
        message.duration = 12.5
        let own = MediaPlayerInfo.metadata(of: message, sender: nil, room: nil)
        XCTAssertEqual(own["xesam:title"], .string("Dentist"))
        XCTAssertEqual(own["xesam:artist"], .strings(["You"]))
        XCTAssertEqual(own["xesam:album"], .string("Recordings"))
        XCTAssertEqual(own["mpris:length"], .int64(12_500_000))
        XCTAssertEqual(own["mpris:trackid"], .objectPath(MediaPlayerInfo.trackID(of: message.id)))
        let received = MediaPlayerInfo.metadata(of: message, sender: "Alice", room: "Family")
        XCTAssertEqual(received["xesam:artist"], .strings(["Alice"]))
        XCTAssertEqual(received["xesam:album"], .string("Family"))
    }

    func testTheStatusAndTheSpeedsAClientMaySet() {
        XCTAssertEqual(MediaPlayerInfo.status(loaded: false, playing: false), "Stopped")
        XCTAssertEqual(MediaPlayerInfo.status(loaded: true, playing: false), "Paused")
        XCTAssertEqual(MediaPlayerInfo.status(loaded: true, playing: true), "Playing")
        MainActor.assumeIsolated {
            XCTAssertEqual(MediaPlayerInfo.snappedRate(0.5), 1, "below the slowest speed: 1×")
            XCTAssertEqual(MediaPlayerInfo.snappedRate(1.3), 1.5)
            XCTAssertEqual(MediaPlayerInfo.snappedRate(1.8), 2)
            XCTAssertEqual(MediaPlayerInfo.snappedRate(8), 2, "past the fastest: 2×")
        }
    }

    func testRecordingKeepsTheSessionFromSuspendingAndPlayingFromGoingIdle() {
        let recording = SessionInhibition.needed(recording: true, playing: false)
        XCTAssertEqual(recording?.flags, [.suspend, .logout])
        XCTAssertEqual(recording?.reason, "Recording a voice message")
        let playing = SessionInhibition.needed(recording: false, playing: true)
        XCTAssertEqual(playing?.flags, [.idle])
        XCTAssertEqual(playing?.reason, "Playing a voice message")
        XCTAssertEqual(SessionInhibition.needed(recording: true, playing: true), recording, "recording holds playback off anyway")
        XCTAssertNil(SessionInhibition.needed(recording: false, playing: false))
    }
}
