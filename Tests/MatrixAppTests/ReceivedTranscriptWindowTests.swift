import CGtk
import CTestSignals
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import XCTest

/// "Transcribe New Messages" in the window covers what arrives from a room:
/// with it on, Bob's voice message is downloaded, queued and transcribed by
/// the window's own transcriber (the real engine), with nothing else to wake it.
final class ReceivedTranscriptWindowTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice", "bob"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// The engine scripts/run-tests installs into the checkout (its
    /// transcription phase runs before this one).
    private static let engineFolder: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        return ProcessInfo.processInfo.environment["HARK_TRANSCRIBER_DIR"] ?? root + "/.build/transcriber"
    }()

    func testBobsVoiceMessageIsTranscribedByTheWindowAsItArrives() throws {
        let homeserver = try XCTUnwrap(Self.server, "no homeserver (see the log above)").url
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let wav = folder.path("errands.wav"), ogg = folder.path("errands.ogg")
        try PulseAudioServer.speech("Remember to buy milk and bread on the way home.", to: wav)
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! audioresample "
                      + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(ogg)")
        setenv("HARK_TRANSCRIBER_DIR", Self.engineFolder, 1)
        defer { unsetenv("HARK_TRANSCRIBER_DIR") }
        try MainActor.assumeIsolated {
            let bob = try RoomWindowTests.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: { store in
                try store.setSetting(MessageStore.transcriptionSetting, "on")
            }) { store, window in
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Errands", invite: [RoomWindowTests.alice]) }
                XCTAssertTrue(waitUntil { RoomWindowTests.button(labelled: "_Accept", in: conversations.sidebar.list) != nil })
                hark_test_emit(try XCTUnwrap(RoomWindowTests.button(labelled: "_Accept", in: conversations.sidebar.list)), "clicked")
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Errands") }, "\(conversations.sidebar.rowNames)")

                let event = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: ogg)
                var received: Message?
                // Each message has its deadline in the transcriber: the wait ends.
                _ = waitUntil(seconds: 600) {
                    received = (try? store.shownIDs(in: .room(roomID)))?.compactMap { try? store.message($0) }
                        .first { $0.eventID == event }
                    return [.done, .empty, .failed].contains(received?.transcriptState)
                }
                let message = try XCTUnwrap(received, "Bob's message arrived")
                XCTAssertEqual(message.transcriptState, .done, (try? store.transcriptError(of: message.id)).flatMap { $0 } ?? "")
                XCTAssertTrue(message.transcript?.lowercased().contains("milk") ?? false, "\(String(describing: message.transcript))")
            }
        }
    }
}
