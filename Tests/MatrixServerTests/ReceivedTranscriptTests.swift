import Foundation
import HarkTestSupport
import Matrix
import XCTest

/// "Transcribe New Messages" covers what arrives from a room: with
/// transcription on, `hark sync --once` downloads the other person's voice
/// message (and the user's own, sent from another device), queues each as a
/// recording is, and transcribes them with the real engine before it ends,
/// newest first; `hark sync` left running transcribes what arrives. Against
/// a real Synapse and keyring.
final class ReceivedTranscriptTests: XCTestCase {
    private struct Listed: Decodable {
        let id: String
        let event_id: String?
        let transcript: String?
        let transcript_state: String
    }

    /// The engine scripts/run-tests installs into the checkout (its
    /// transcription phase runs before this one).
    private static let engineFolder: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        return ProcessInfo.processInfo.environment["HARK_TRANSCRIBER_DIR"] ?? root + "/.build/transcriber"
    }()

    private var home: ScratchFolder!

    private func hark(_ arguments: [String], input: String? = nil, seconds: Double = 300) throws -> (status: Int32?, output: String) {
        let child = try ChildProcess(harkExecutable, arguments,
                                     environment: ["XDG_DATA_HOME": home.url.path, "HARK_TRANSCRIBER_DIR": Self.engineFolder],
                                     input: input)
        let status = child.waitForExit(seconds: seconds)
        return (status, child.output)
    }

    /// `sentence` spoken by espeak-ng and encoded as a voice message is (Ogg Opus), by `hark record --output`.
    private func voiceFile(saying sentence: String, name: String) throws -> Data {
        let wav = home.path("\(name).wav"), ogg = home.path("\(name).ogg")
        try PulseAudioServer.speech(sentence, to: wav)
        let (status, output) = try hark(["record", "--output", ogg, "--raw", "--source", "filesrc location=\(wav) ! wavparse"])
        XCTAssertEqual(status, 0, output)
        return try XCTUnwrap(FileManager.default.contents(atPath: ogg))
    }

    @MainActor
    private static func send(_ audio: Data, title: String, from client: MatrixClient, to roomID: String) throws -> String {
        let uri = try awaitOnLoop { try await client.upload(audio, contentType: "audio/ogg", fileName: "\(title).ogg") }
        return try awaitOnLoop {
            try await client.sendVoiceMessage(
                roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                message: OutgoingVoiceMessage(title: title, fileName: "\(title).ogg", size: audio.count,
                                              durationMilliseconds: 3000, levels: .init()),
                contentURI: uri)
        }
    }

    func testReceivedVoiceMessagesAreTranscribedBySyncNewestFirstWhoeverSentThem() throws {
        let server = try SynapseServer()
        defer { server.stop() }
        try server.register("gail", password: HomeserverTests.password)
        try server.register("hugo", password: HomeserverTests.password)
        let keyring = try TestKeyring()
        defer { withExtendedLifetime(keyring) {} }
        home = try ScratchFolder()
        let url = server.url

        var (status, output) = try hark(["transcriber", "status", "--json"])
        XCTAssertEqual(status, 0, output)
        guard output.contains("\"installed\":true") else {
            return XCTFail("no engine in \(Self.engineFolder): scripts/run-tests installs it (scripts/install-transcriber)")
        }
        (status, output) = try hark(["transcriber", "enable"])
        XCTAssertEqual(status, 0, output)
        (status, output) = try hark(["account", "login", "--homeserver", url, "--user", "gail"],
                                    input: HomeserverTests.password + "\n")
        XCTAssertEqual(status, 0, output)
        let roomID = try MainActor.assumeIsolated { () throws -> String in
            let hugo = try HomeserverTests.signedIn("hugo", url)
            return try awaitOnLoop { try await hugo.createRoom(name: "Errands", invite: ["@gail:localhost"]) }
        }
        (status, output) = try hark(["join", roomID])
        XCTAssertEqual(status, 0, output)

        // Gail's own message from her phone (another device), then Hugo's answer.
        let phone = try voiceFile(saying: "I will be at the train station in twenty minutes.", name: "phone")
        let answer = try voiceFile(saying: "Remember to buy milk and bread on the way home.", name: "answer")
        let (ownEvent, hugoEvent) = try MainActor.assumeIsolated { () throws -> (String, String) in
            let gailsPhone = try HomeserverTests.signedIn("gail", url)
            let hugo = try HomeserverTests.signedIn("hugo", url)
            return (try Self.send(phone, title: "From my phone", from: gailsPhone, to: roomID),
                    try Self.send(answer, title: "From Hugo", from: hugo, to: roomID))
        }

        (status, output) = try hark(["sync", "--once"])
        XCTAssertEqual(status, 0, output)
        let listedOutput = try hark(["list", "--json"]).output
        let listed = try JSONDecoder().decode([Listed].self, from: Data((listedOutput.split(separator: "\n").last ?? "").utf8))
        let own = try XCTUnwrap(listed.first { $0.event_id == ownEvent }, listedOutput)
        let hugos = try XCTUnwrap(listed.first { $0.event_id == hugoEvent }, listedOutput)
        XCTAssertTrue(output.contains("received \(own.id)") && output.contains("received \(hugos.id)"), output)
        XCTAssertEqual(hugos.transcript_state, "done", output)
        XCTAssertTrue(hugos.transcript?.lowercased().contains("milk") ?? false, "\(hugos)")
        XCTAssertEqual(own.transcript_state, "done", output)
        XCTAssertTrue(own.transcript?.lowercased().contains("station") ?? false, "\(own)")
        let hugoFirst = try XCTUnwrap(output.range(of: "Transcribing “From Hugo”"), output)
        let ownSecond = try XCTUnwrap(output.range(of: "Transcribing “From my phone”"), output)
        XCTAssertLessThan(hugoFirst.lowerBound, ownSecond.lowerBound, "newest first: \(output)")

        // `hark sync` left running transcribes what arrives while it waits;
        // Ctrl+C ends it cleanly.
        let later = try voiceFile(saying: "The car is ready at the garage on Friday.", name: "later")
        let listening = try ChildProcess(harkExecutable, ["sync"],
                                         environment: ["XDG_DATA_HOME": home.url.path, "HARK_TRANSCRIBER_DIR": Self.engineFolder])
        let laterEvent = try MainActor.assumeIsolated { () throws -> String in
            try Self.send(later, title: "Later", from: try HomeserverTests.signedIn("hugo", url), to: roomID)
        }
        // Each message has its deadline in the transcriber: the wait ends.
        let deadline = Date().addingTimeInterval(600)
        while !listening.output.lowercased().contains("garage"), listening.isRunning, Date() < deadline { usleep(100_000) }
        kill(listening.process.processIdentifier, SIGINT)
        XCTAssertEqual(listening.waitForExit(seconds: 30), 0, listening.output)
        let all = try hark(["list", "--json"]).output
        let laterListed = try XCTUnwrap(try JSONDecoder().decode([Listed].self, from: Data((all.split(separator: "\n").last ?? "").utf8))
            .first { $0.event_id == laterEvent }, all)
        XCTAssertEqual(laterListed.transcript_state, "done", listening.output)
        XCTAssertTrue(listening.output.contains("\(laterListed.id)\t\(laterListed.transcript ?? "-")"), listening.output)
    }
}
