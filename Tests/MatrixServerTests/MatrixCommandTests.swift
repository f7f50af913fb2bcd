import Foundation
import HarkTestSupport
import Matrix
import XCTest

/// `hark account`, `rooms`, `join`, `send`, `sync` and `list --json` as a
/// script uses them, against a real Synapse and keyring.
final class MatrixCommandTests: XCTestCase {
    private struct Listed: Decodable {
        let id: String
        let origin: String
        let room_id: String?
        let sender: String?
        let event_id: String?
        let send_state: String?
        let state: String
        let unread: Bool
    }

    private struct ListedRoom: Decodable {
        let id: String
        let name: String
        let membership: String
        let encrypted: Bool
        let unread: Int
    }

    private var home: ScratchFolder!
    private var environment: [String: String] { ["XDG_DATA_HOME": home.url.path] }

    private func hark(_ arguments: [String], input: String? = nil, seconds: Double = 60) throws -> (status: Int32?, output: String) {
        let child = try ChildProcess(harkExecutable, arguments, environment: environment, input: input)
        let status = child.waitForExit(seconds: seconds)
        return (status, child.output)
    }

    private func lastLine(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    private func list() throws -> [Listed] {
        let (status, output) = try hark(["list", "--json"])
        XCTAssertEqual(status, 0, output)
        return try JSONDecoder().decode([Listed].self, from: Data(lastLine(output).utf8))
    }

    private func rooms() throws -> [ListedRoom] {
        let (status, output) = try hark(["rooms", "--json"])
        XCTAssertEqual(status, 0, output)
        return try JSONDecoder().decode([ListedRoom].self, from: Data(lastLine(output).utf8))
    }

    /// A locked keyring is said to be locked, by every command, with the
    /// account kept (not "Not signed in", whose advice would make a new
    /// device); and a process holding the token writes no core file even with
    /// core dumps allowed, as they are here (`ulimit -c unlimited`).
    func testALockedKeyringIsSaidAndATokenNeverLandsInACoreFile() throws {
        let server = try SynapseServer()
        defer { server.stop() }
        try server.register("ines", password: HomeserverTests.password)
        let keyring = try TestKeyring()
        home = try ScratchFolder()
        var (status, output) = try hark(["account", "login", "--homeserver", server.url, "--user", "ines"],
                                        input: HomeserverTests.password + "\n")
        XCTAssertEqual(status, 0, output)

        let crashFolder = try ScratchFolder()
        let sync = try ChildProcess("/bin/bash", ["-c", "ulimit -c unlimited && cd \"$0\" && exec \"$1\" sync",
                                                  crashFolder.url.path, harkExecutable], environment: environment)
        let limits = "/proc/\(sync.process.processIdentifier)/limits"
        func noCoreSize() -> Bool {
            (try? String(contentsOfFile: limits, encoding: .utf8))?.split(separator: "\n")
                .contains { $0.hasPrefix("Max core file size") && $0.split(separator: " ").suffix(3).prefix(2) == ["0", "0"] } == true
        }
        let deadline = Date().addingTimeInterval(30)
        while !noCoreSize() && sync.isRunning && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(noCoreSize(), "the process that reads the token allows no core file, and cannot allow one again"
                      + " (sync \(sync.isRunning ? "running" : "ended"): \(sync.output))")
        kill(sync.process.processIdentifier, SIGQUIT)  // dumps core by default; Swift's backtracer catches SIGSEGV
        sync.waitForExit(seconds: 30)
        let pattern = (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)) ?? ""
        if !pattern.hasPrefix("|") {  // a core handler elsewhere writes no file here to look for
            let files = try FileManager.default.contentsOfDirectory(atPath: crashFolder.url.path)
            XCTAssertFalse(files.contains { $0.hasPrefix("core") }, "a core file: \(files)")
        }

        try keyring.lock()
        (status, output) = try hark(["account", "status", "--json"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("\"state\":\"keyring_locked\""), output)
        (status, output) = try hark(["account", "status"])
        XCTAssertTrue(output.contains("The keyring that keeps your sign-in is locked."), output)
        (status, output) = try hark(["rooms"])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("The keyring that keeps your sign-in is locked."), output)
        XCTAssertFalse(output.contains("not signed in"), output)
        keyring.stop()
    }

    func testAScriptSignsInJoinsSendsQueuesWhileTheServerIsDownAndReceives() throws {
        let server = try SynapseServer()
        defer { server.stop() }
        try server.register("gail", password: HomeserverTests.password)
        try server.register("hugo", password: HomeserverTests.password)
        let keyring = try TestKeyring()
        home = try ScratchFolder()
        let url = server.url

        var (status, output) = try hark(["account", "status", "--json"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("\"state\":\"signed_out\""), output)
        (status, output) = try hark(["account", "login", "--homeserver", url, "--user", "gail"], input: "not it\n")
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("The user name or password is wrong."), output)
        (status, output) = try hark(["account", "login", "--homeserver", url, "--user", "gail"],
                                    input: HomeserverTests.password + "\n")
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Signed in as @gail:localhost"), output)
        (status, output) = try hark(["account", "status", "--json"])
        XCTAssertTrue(output.contains("\"state\":\"signed_in\""), output)
        XCTAssertTrue(output.contains("\"user_id\":\"@gail:localhost\""), output)
        XCTAssertNotNil(keyring.lookup([("user", "@gail:localhost"), ("homeserver", url)]), "the token is in the keyring")

        // Hugo invites Gail; she accepts from the command line.
        let (roomID, encryptedID) = try MainActor.assumeIsolated { () throws -> (String, String) in
            let hugo = try HomeserverTests.signedIn("hugo", url)
            return (try awaitOnLoop { try await hugo.createRoom(name: "Plans", invite: ["@gail:localhost"]) },
                    try awaitOnLoop { try await hugo.createRoom(name: "Locked", invite: ["@gail:localhost"], encrypted: true) })
        }
        var listed = try rooms()
        XCTAssertEqual(listed.first { $0.id == roomID }?.membership, "invite")
        XCTAssertEqual(try hark(["join", roomID]).status, 0)
        XCTAssertEqual(try hark(["join", encryptedID]).status, 0)
        listed = try rooms()
        XCTAssertEqual(listed.first { $0.id == roomID }?.membership, "join")
        XCTAssertEqual(listed.first { $0.id == roomID }?.name, "Plans")
        XCTAssertEqual(listed.first { $0.id == encryptedID }?.encrypted, true)

        // Recorded, sent: the event id on standard output.
        (status, output) = try hark(["record", "--duration", "1.5", "--raw", "--source", "audiotestsrc is-live=true wave=sine"])
        XCTAssertEqual(status, 0, output)
        let first = lastLine(output)
        (status, output) = try hark(["send", first, roomID])
        XCTAssertEqual(status, 0, output)
        let firstEvent = lastLine(output)
        XCTAssertTrue(firstEvent.hasPrefix("$"), output)

        // Nothing goes into the encrypted room.
        (status, output) = try hark(["send", first, encryptedID])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("This room is end-to-end encrypted and Hark’s encryption is not set up"), output)

        // The server is down: queued (exit status 3), sent once by the next sync.
        (status, output) = try hark(["record", "--duration", "1", "--raw", "--source", "audiotestsrc is-live=true wave=sine"])
        let second = lastLine(output)
        server.stop()
        (status, output) = try hark(["send", second, roomID])
        XCTAssertEqual(status, 3, output)
        XCTAssertTrue(output.contains("queued"), output)
        XCTAssertEqual(try list().first { $0.id == second }?.send_state, "sending")
        try server.start()
        (status, output) = try hark(["sync", "--once"])
        XCTAssertEqual(status, 0, output)
        let sent = try XCTUnwrap(try list().first { $0.id == second })
        XCTAssertEqual(sent.send_state, "sent")
        let secondEvent = try XCTUnwrap(sent.event_id)

        // Hugo reads both, each once, and answers with a voice message of his own.
        let firstFile = home.path("hark/messages/\(first).ogg")
        let answer = try MainActor.assumeIsolated { () throws -> String in
            let hugo = try HomeserverTests.signedIn("hugo", url)
            let sync = try awaitOnLoop { try await hugo.sync(since: nil, timeoutMilliseconds: 7) }
            let events = try XCTUnwrap(sync.joined[roomID]).audioMessages
            XCTAssertEqual(events.map(\.event.eventID), [firstEvent, secondEvent])
            XCTAssertTrue(events.allSatisfy { $0.content.isVoice })
            let audio = try XCTUnwrap(FileManager.default.contents(atPath: firstFile))
            let uri = try awaitOnLoop { try await hugo.upload(audio, contentType: "audio/ogg", fileName: "a.ogg") }
            let answer = try awaitOnLoop {
                try await hugo.sendVoiceMessage(
                    roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                    message: OutgoingVoiceMessage(title: "Voice message", fileName: "a.ogg", size: audio.count,
                                                  durationMilliseconds: 1500, levels: .init()),
                    contentURI: uri)
            }
            // And chats on, more than a sync holds: the answer is in the gap before the sync's batch.
            try ConversationTests.sendTexts(from: hugo, to: roomID, count: 60)
            return answer
        }
        (status, output) = try hark(["sync", "--once"])
        XCTAssertEqual(status, 0, output)
        let received = try XCTUnwrap(try list().first { $0.event_id == answer })
        XCTAssertTrue(output.contains("received \(received.id)"), output)
        XCTAssertEqual(received.origin, "received")
        XCTAssertEqual(received.sender, "@hugo:localhost")
        XCTAssertEqual(received.room_id, roomID)
        XCTAssertEqual(received.state, "ready", "downloaded and analysed")
        XCTAssertTrue(received.unread)
        XCTAssertEqual(try rooms().first { $0.id == roomID }?.unread, 1)
        let mine = try XCTUnwrap(try list().first { $0.id == first })
        XCTAssertEqual(mine.origin, "recorded")
        XCTAssertEqual(mine.send_state, "sent")

        // `hark sync` waits on the long-poll: a message Hugo sends meanwhile
        // arrives while it waits, and Ctrl+C ends it cleanly.
        let listening = try ChildProcess(harkExecutable, ["sync"], environment: environment)
        let idsBefore = Set(try list().map(\.id))
        try MainActor.assumeIsolated {
            let hugo = try HomeserverTests.signedIn("hugo", url)
            _ = try awaitOnLoop {
                try await hugo.sendMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(), json: [
                    "msgtype": "m.audio", "body": "later.ogg", "url": "mxc://localhost/none",
                ])
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while !listening.output.contains("received "), Date() < deadline, listening.isRunning { usleep(100_000) }
        XCTAssertTrue(listening.output.contains("received "), listening.output)
        kill(listening.process.processIdentifier, SIGINT)
        XCTAssertEqual(listening.waitForExit(seconds: 10), 0, listening.output)
        XCTAssertEqual(Set(try list().map(\.id)).subtracting(idsBefore).count, 1)

        XCTAssertEqual(try hark(["account", "logout"]).status, 0)
        (status, output) = try hark(["account", "status", "--json"])
        XCTAssertTrue(output.contains("\"state\":\"signed_out\""), output)
        XCTAssertNil(keyring.lookup([("user", "@gail:localhost"), ("homeserver", url)]))
        (status, output) = try hark(["sync", "--once"])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("not signed in"), output)
        XCTAssertEqual(try list().count, 4, "every message is still there")
    }
}
