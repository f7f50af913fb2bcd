import Foundation
import HarkTestSupport
import MessageStore
import XCTest

/// Names strangers chose, as a screen reader reads them in the window (Hark
/// as its own process, read through AT-SPI): markup in a room's name is
/// text, in the sidebar, the room's page and Send to…; a 60,000-character
/// name is cut and the window goes on answering; a name with line breaks
/// and a bidi override reads on one line, in order. Each test's user is new
/// to the class's homeserver. (An extension of RoomWindowTests.)
extension RoomWindowTests {
    static let markupName = #"Family <a href="https://x">Verify</a> <span size="xx-large" foreground="red">URGENT</span>"#
    static let ampersandName = "Tom & Jerry"

    func testThroughAtSpiRoomNamesWithMarkupReadAsWritten() throws {
        let session = try StrangerSession(user: "dora", homeserver: try homeserver, server: XCTUnwrap(Self.server))
        defer { session.stop() }
        let (userID, homeserver) = (session.userID, session.homeserver)
        let voice = try oggVoiceFile(in: session.folder)
        let (family, tom) = try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            let family = try awaitOnLoop { try await bob.createRoom(name: Self.markupName, invite: [userID]) }
            let tom = try awaitOnLoop { try await bob.createRoom(name: Self.ampersandName, invite: [userID]) }
            return (family, tom)
        }
        try session.hark(["sync", "--once"])
        try session.hark(["join", family])
        try session.hark(["join", tom])
        try session.hark(["import", voice])
        let app = try session.launchWide()
        defer { app.process.terminate() }

        // The sidebar: both rooms by their names, as written.
        XCTAssertTrue(session.waitForText { $0.contains(Self.markupName) && $0.contains(Self.ampersandName) },
                      "\(session.texts())\n\(app.output)")
        XCTAssertFalse(session.texts().contains { $0.contains("Family Verify") }, "no markup was read: \(session.texts())")

        // Send to…: the rooms offered, as written (markup had made them blank rows or a link).
        let menu = try XCTUnwrap(Self.probeButtons().first { $0.hasPrefix("Menu for ") }, "\(app.output)")
        _ = try Self.probe(["--click", menu, "--click", "Send to…"])
        XCTAssertTrue(session.waitForText { $0.contains { $0.hasPrefix("Send “") } }, "\(session.texts())")
        let dialogTexts = session.texts()
        XCTAssertTrue(dialogTexts.contains(Self.markupName) && dialogTexts.contains(Self.ampersandName), "\(dialogTexts)")
        XCTAssertFalse(dialogTexts.contains { $0.contains("Family Verify") }, "a row's title read as markup: \(dialogTexts)")
        _ = try Self.probe(["--click", "Cancel"])

        // The room's page names the room as written, and never keeps the previous room's words.
        try session.openRoom(family)
        let familySentence = "Record a message with the button below: it is sent to \(Self.markupName)."
        XCTAssertTrue(session.waitForText { $0.contains(familySentence) }, "\(session.texts())\n\(app.output)")
        try session.openRoom(tom)
        let tomSentence = "Record a message with the button below: it is sent to \(Self.ampersandName)."
        XCTAssertTrue(session.waitForText { $0.contains(tomSentence) }, "\(session.texts())\n\(app.output)")
        XCTAssertFalse(session.texts().contains(familySentence))
        XCTAssertEqual(warningLines(in: app.output), [])
    }

    func testThroughAtSpiAHugeNameIsCutAndANameWithLineBreaksAndAnOverrideReadsInOrder() throws {
        let session = try StrangerSession(user: "ernst", homeserver: try homeserver, server: XCTUnwrap(Self.server))
        defer { session.stop() }
        let (userID, homeserver) = (session.userID, session.homeserver)
        let huge = String(repeating: "Long name ", count: 6_000)
        let tricky = "Invoice \u{202E}gpj.exe\nsecond line\nthird"
        let (hugeRoom, trickyRoom) = try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            let hugeRoom = try awaitOnLoop { try await bob.createRoom(name: huge, invite: [userID]) }
            let trickyRoom = try awaitOnLoop { try await bob.createRoom(name: tricky, invite: [userID]) }
            return (hugeRoom, trickyRoom)
        }
        try session.hark(["sync", "--once"])
        try session.hark(["join", hugeRoom])
        try session.hark(["join", trickyRoom])
        let app = try session.launchWide()
        defer { app.process.terminate() }

        let cut = String(huge.prefix(ReceivedText.shownLength - 1)).trimmingCharacters(in: .whitespaces) + "…"
        XCTAssertTrue(session.waitForText { $0.contains(cut) && $0.contains("Invoice gpj.exe second line third") },
                      "\(session.texts().map { $0.prefix(300) })\n\(app.output)")
        try session.openRoom(hugeRoom)
        XCTAssertTrue(session.waitForText { $0.contains("Record a message with the button below: it is sent to \(cut).") },
                      "\(session.texts())\n\(app.output)")
        // The window still answers: its page changes for the next room.
        try session.openRoom(trickyRoom)
        XCTAssertTrue(session.waitForText { $0.contains("Record a message with the button below: it is sent to Invoice gpj.exe second line third.") },
                      "\(session.texts())\n\(app.output)")
        let texts = session.texts()
        XCTAssertFalse(texts.contains { $0.count > ReceivedText.storedLength + 200 }, "no text holds the whole name")
        XCTAssertFalse(texts.contains { $0.unicodeScalars.contains("\u{202E}") || $0.contains("gpj.exe\n") })
        XCTAssertEqual(warningLines(in: app.output), [])
    }

    /// The names of the visible buttons.
    static func probeButtons() throws -> [String] {
        try probe([]).first { $0.hasPrefix("{\"buttons\"") }
            .flatMap { try? JSONDecoder().decode([String: [String]].self, from: Data($0.utf8))["buttons"] } ?? []
    }
}

/// A user of the class's homeserver signed in from the command line, with
/// their own keyring, data folder and accessibility bus.
final class StrangerSession {
    let user: String
    let homeserver: String
    let folder: ScratchFolder
    let keyring: TestKeyring
    let accessibility: AccessibilityBus
    var userID: String { "@\(user):localhost" }
    /// Hark's own data; GTK speaks AT-SPI.
    var environment: [String: String] { ["XDG_DATA_HOME": folder.path("data"), "GTK_A11Y": "atspi"] }

    init(user: String, homeserver: String, server: SynapseServer) throws {
        self.user = user
        self.homeserver = homeserver
        try server.register(user, password: RoomWindowTests.password)
        keyring = try TestKeyring()
        folder = try ScratchFolder()
        accessibility = try AccessibilityBus()
        let login = try ChildProcess(harkExecutable, ["account", "login", "--homeserver", homeserver, "--user", user],
                                     environment: environment, input: RoomWindowTests.password)
        XCTAssertEqual(login.waitForExit(seconds: 120), 0, login.output)
    }

    func stop() {
        accessibility.stop()
        keyring.stop()
    }

    func hark(_ arguments: [String]) throws {
        let run = try ChildProcess.run(harkExecutable, arguments, environment: environment, seconds: 120)
        XCTAssertEqual(run.status, 0, "hark \(arguments.joined(separator: " ")): \(run.output)")
    }

    /// The window, wide enough for the sidebar beside the room.
    func launchWide() throws -> ChildProcess {
        let store = try MessageStore(folder: URL(fileURLWithPath: folder.path("data")).appendingPathComponent("hark"))
        try store.setSetting("window-size", "1000 700")
        return try ChildProcess(harkExecutable, [], environment: environment)
    }

    /// Opens a room as a notification's click does (the application's action, over D-Bus).
    func openRoom(_ roomID: String) throws {
        let call = try ChildProcess.run("/usr/bin/gdbus", [
            "call", "--session", "--dest", "io.github.hark.Hark", "--object-path", "/io/github/hark/Hark",
            "--method", "org.gtk.Actions.Activate", "open-room", "[<'\(roomID)'>]", "{}"], seconds: 30)
        XCTAssertEqual(call.status, 0, call.output)
    }

    /// Every text a screen reader can say of the window (names, descriptions, labels).
    func texts() -> [String] {
        guard let line = (try? RoomWindowTests.probe(["--all-text"]))?.first(where: { $0.hasPrefix("{\"texts\"") }),
              let decoded = try? JSONDecoder().decode([String: [[String: String]]].self, from: Data(line.utf8)) else { return [] }
        return decoded["texts"]?.compactMap { $0["text"] } ?? []
    }

    /// Waits (90 s at most) until some text satisfies `found`… or all of them together do.
    func waitForText(_ found: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if found(texts()) { return true }
            usleep(500_000)
        }
        return false
    }
}
