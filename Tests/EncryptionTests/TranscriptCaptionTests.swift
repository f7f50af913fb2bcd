import Foundation
import GLibSupport
import HarkTestSupport
import XCTest

/// The words travel with the voice, against Synapse and the independent
/// matrix-nio peer: `hark send --with-transcript` puts the transcript the
/// real engine made inside the event (spec 1.10's caption beside the
/// file's name, and the text representation), which nio reads; one without
/// a transcript is refused, nothing sent. nio's voice message with a caption
/// is stored with those words as its sender's transcript, no engine run
/// (none is there), `hark search` finds them and `list --json` says whose they are.
final class TranscriptCaptionTests: XCTestCase {
    private static let engineFolder = ProcessInfo.processInfo.environment["HARK_TRANSCRIBER_DIR"]
        ?? InstalledEngine.root + "/.build/transcriber"

    private static func hark(_ home: ScratchFolder, _ arguments: [String], input: String? = nil,
                             engine: String = engineFolder) throws -> (status: Int32?, output: String) {
        let child = try ChildProcess(harkExecutable, arguments,
                                     environment: ["XDG_DATA_HOME": home.url.path, "HARK_TRANSCRIBER_DIR": engine],
                                     input: input)
        return (child.waitForExit(seconds: 300), child.output)
    }

    private static func lastLine(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    private static func listed(_ home: ScratchFolder) throws -> [[String: Any]] {
        let (status, output) = try hark(home, ["list", "--json"])
        XCTAssertEqual(status, 0, output)
        return (try JSONSerialization.jsonObject(with: Data(Self.lastLine(output).utf8))) as? [[String: Any]] ?? []
    }

    func testTheWordsGoInsideTheVoiceEventAndComeBackAsTheSendersTranscript() throws {
        _ = try MainActor.assumeIsolated { try NioPeer.python() }
        try MainActor.assumeIsolated {
            MainLoop.bridgeSwiftConcurrency()
            guard let server = SharedHomeserver.start(users: ["alice", "bob"]) else { return XCTFail("no homeserver") }
            defer { server.stop() }
            let keyring = try TestKeyring()
            defer { keyring.stop() }
            let home = try ScratchFolder()
            func hark(_ arguments: [String], input: String? = nil, engine: String = Self.engineFolder) throws -> (status: Int32?, output: String) {
                try Self.hark(home, arguments, input: input, engine: engine)
            }
            func listed() throws -> [[String: Any]] { try Self.listed(home) }
            var (code, output) = try hark(["transcriber", "status", "--json"])
            guard output.contains("\"installed\":true") else {
                return XCTFail("no engine in \(Self.engineFolder): scripts/run-tests installs it (scripts/install-transcriber)")
            }
            (code, output) = try hark(["account", "login", "--homeserver", server.url, "--user", "alice"],
                                      input: SharedHomeserver.password + "\n")
            XCTAssertEqual(code, 0, output)
            let bob = try NioPeer(homeserver: server.url, user: "bob", password: SharedHomeserver.password, store: home.path("bob"))
            defer { bob.stop() }
            let room = try awaitOnLoop(seconds: 120) { () async throws -> String in
                try await bob.call("sync")
                let made = try await bob.call("create_room", ["encrypted": false, "invite": ["@alice:localhost"]])
                return try XCTUnwrap(made["room_id"] as? String)
            }
            (code, output) = try hark(["sync", "--once"])
            XCTAssertEqual(code, 0, output)
            (code, output) = try hark(["join", room])
            XCTAssertEqual(code, 0, output)

            // A take of speech, transcribed here by the real engine as it is imported.
            let wav = home.path("dentist.wav"), ogg = home.path("Dentist.ogg")
            try PulseAudioServer.speech("The dentist moved my appointment to Thursday.", to: wav)
            (code, output) = try hark(["record", "--output", ogg, "--raw", "--source", "filesrc location=\(wav) ! wavparse"])
            XCTAssertEqual(code, 0, output)
            (code, output) = try hark(["transcriber", "enable"])
            XCTAssertEqual(code, 0, output)
            (code, output) = try hark(["import", ogg])
            XCTAssertEqual(code, 0, output)
            // Its id first, on standard output; the transcription's progress follows on standard error.
            let id = try XCTUnwrap(output.split(separator: "\n").lazy.compactMap { $0.split(separator: " ").first }
                .first { $0.count == 36 }.map(String.init), output)
            let take = try XCTUnwrap(try listed().first { $0["id"] as? String == id }, output)
            let words = try XCTUnwrap(take["transcript"] as? String, "transcribed as imported: \(output)")
            XCTAssertTrue(words.lowercased().contains("thursday"), words)
            XCTAssertEqual(take["transcript_source"] as? String, "local")

            (code, output) = try hark(["send", id, room, "--with-transcript"])
            XCTAssertEqual(code, 0, output)
            let eventID = Self.lastLine(output)
            let content = try awaitOnLoop(seconds: 120) { () async throws -> [String: Any] in
                let found = try await bob.call("sync_until", ["room_id": room, "msgtype": "m.audio", "seconds": 60,
                                                              "sender": "@alice:localhost"])
                let event = try XCTUnwrap(found["event"] as? [String: Any])
                XCTAssertEqual(event["event_id"] as? String, eventID)
                return try XCTUnwrap(event["content"] as? [String: Any])
            }
            XCTAssertEqual(content["body"] as? String, words, "the caption: what was said")
            // Titled by its first words (an import's name is no title given), and named after its title.
            let fileName = try XCTUnwrap(take["title"] as? String) + ".ogg"
            XCTAssertEqual(content["filename"] as? String, fileName, "beside the file's name")
            XCTAssertNotEqual(fileName, words)
            XCTAssertEqual(content["org.matrix.msc1767.text"] as? String, words)
            XCTAssertNotNil(content["org.matrix.msc3245.voice"], "still a voice message")
            XCTAssertEqual((content["org.matrix.msc1767.file"] as? [String: Any])?["name"] as? String, fileName)

            // Without a transcript, the words cannot go: nothing is sent.
            (code, output) = try hark(["transcriber", "disable"])
            XCTAssertEqual(code, 0, output)
            let tone = try oggVoiceFile(in: home)
            (code, output) = try hark(["import", tone])
            XCTAssertEqual(code, 0, output)
            let untranscribed = try XCTUnwrap(try listed().first { $0["title"] as? String == "voice" }?["id"] as? String)
            (code, output) = try hark(["send", untranscribed, room, "--with-transcript"])
            XCTAssertEqual(code, 1, output)
            XCTAssertTrue(output.contains("\(untranscribed) has no transcript: nothing was sent"), output)
            XCTAssertTrue(try listed().first { $0["id"] as? String == untranscribed }?["send_state"] is NSNull, "never queued")

            // Bob's words come with his voice: kept as his, with no engine here at all.
            (code, output) = try hark(["transcriber", "enable"])
            XCTAssertEqual(code, 0, output)
            let spoken = "Meet me at the bakery at noon"
            try awaitOnLoop(seconds: 120) {
                _ = try await bob.call("send_audio", ["room_id": room, "path": tone, "duration_ms": 4000, "caption": spoken])
            }
            (code, output) = try hark(["sync", "--once"], engine: home.path("no-engine"))
            XCTAssertEqual(code, 0, output)
            let fromBob = try XCTUnwrap(try listed().first { $0["sender"] as? String == "@bob:localhost" }, output)
            XCTAssertEqual(fromBob["transcript"] as? String, spoken)
            XCTAssertEqual(fromBob["transcript_source"] as? String, "sender")
            XCTAssertEqual(fromBob["transcript_state"] as? String, "done", "not queued for the engine")
            XCTAssertEqual(fromBob["title"] as? String, "voice", "titled by the file's name")
            XCTAssertEqual(fromBob["state"] as? String, "ready", output)
            (code, output) = try hark(["transcriber", "status", "--json"], engine: home.path("no-engine"))
            XCTAssertTrue(output.contains("\"queued\":0"), output)
            (code, output) = try hark(["search", "bakery", "--json"])
            XCTAssertEqual(code, 0, output)
            XCTAssertTrue(output.contains(try XCTUnwrap(fromBob["id"] as? String)), output)
            XCTAssertFalse(output.contains(id), output)
        }
    }
}
