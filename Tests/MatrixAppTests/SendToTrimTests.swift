import AudioEngine
import CGLib
import CGtk
import Foundation
import HarkTestSupport
import Levels
import Matrix
@testable import HarkUI
import MessageStore
import XCTest

/// Send to… sends a take of one's own trimmed of the silence at its ends, as
/// a draft is, and the take kept is the one that went.
extension RoomWindowTests {
    /// 2 s of silence, 1.5 s of a tone, 2 s of silence, as the recorder writes a take (Ogg Opus): its path.
    static func takeWithPauses(in folder: ScratchFolder) throws -> String {
        let wav = folder.path("take.wav")
        try WAVFile.write([.init(seconds: 2, amplitude: 0), .init(seconds: 1.5, amplitude: 0.4), .init(seconds: 2, amplitude: 0)],
                          rate: 48_000, to: URL(fileURLWithPath: wav))
        let opus = folder.path("take.ogg")
        try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! opusenc ! oggmux ! filesink location=\(opus)")
        return opus
    }

    func testATakeSentWithSendToGoesTrimmedAndTheKeptOneIsTheSame() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let opus = try Self.takeWithPauses(in: folder)
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            var takeID = ""
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: { store in
                // A take recorded earlier in the recordings (its audio as the recorder would have written it).
                let take = try store.beginRecording(title: "Pauses")
                try FileManager.default.copyItem(atPath: opus, toPath: store.audioPath(of: take))
                let analysis = try Analyzer.analyze(path: opus)
                try store.finishRecording(take.id, duration: analysis.duration, levels: analysis.levels)
                takeID = take.id
            }) { store, window in
                let conversations = try Self.signIn(window, homeserver)
                let session = try XCTUnwrap(conversations.account.session)
                let history = try XCTUnwrap(window.history)
                let room = try awaitOnLoop { try await bob.createRoom(name: "Trimmed", invite: [Self.alice]) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(room)) != nil })
                try awaitOnLoop { try await session.join(room) }
                conversations.show(.recordings)
                XCTAssertEqual(try store.message(takeID).duration, 5.5, accuracy: 0.05)

                let row = try XCTUnwrap(history.row(showing: takeID))
                gtk_widget_activate_action_variant(row.widget, HistoryActions.Name.sendTo.detailed, g_variant_new_string(takeID))
                XCTAssertTrue(waitUntil { ShownSendToDialog.over(window) != nil })
                try XCTUnwrap(ShownSendToDialog.over(window)).choose("Trimmed")
                XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: takeID)) == .sent })
                let kept = try store.message(takeID).duration
                // About 3.5 s shorter: 1.5 s and a quarter second either side (Opus
                // smears the tone's edges over an interval or two more).
                XCTAssertEqual(kept, 2, accuracy: 0.3, "about 3.5 s shorter")
                let eventID = try XCTUnwrap(try store.matrix.sends(of: takeID).first?.eventID)
                let json = try awaitOnLoop { try await bob.eventJSON(roomID: room, eventID: eventID) }
                let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
                let info = try XCTUnwrap((event["content"] as? [String: Any])?["info"] as? [String: Any])
                XCTAssertEqual(info["duration"] as? Int, Int((kept * 1000).rounded()), "what went is what is kept: \(info)")
            }
        }
    }
}
