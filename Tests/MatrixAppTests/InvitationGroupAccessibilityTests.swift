import Foundation
import HarkTestSupport
import XCTest

/// Many invitations, as a screen reader user meets them: past three, one
/// "N invitations" row that shows them on demand and declines them all
/// (asked first); the server then holds none. (An extension of RoomWindowTests.)
extension RoomWindowTests {
    func testThroughAtSpiManyInvitationsAreGroupedAndDeclineAllLeavesNone() throws {
        let session = try StrangerSession(user: "fiona", homeserver: try homeserver, server: XCTUnwrap(Self.server))
        defer { session.stop() }
        let (userID, homeserver) = (session.userID, session.homeserver)
        let names = (1...7).map { "Offer \($0)" }
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            for name in names {
                _ = try awaitOnLoop { try await bob.createRoom(name: name, invite: [userID]) }
            }
        }
        let app = try session.launchWide()
        defer { app.process.terminate() }

        // One row for the seven, with Decline All; none of them one by one.
        XCTAssertTrue(session.waitForText { $0.contains("7 invitations") }, "\(session.texts())\n\(app.output)")
        var buttons = try Self.probeButtons()
        XCTAssertTrue(buttons.contains("Decline All Invitations") && buttons.contains("Show Invitations"), "\(buttons)")
        XCTAssertFalse(buttons.contains { $0.hasPrefix("Decline invitation to") }, "\(buttons)")

        // Shown on demand, each with its own Accept and Decline.
        _ = try Self.probe(["--click", "Show Invitations"])
        buttons = try Self.probeButtons()
        XCTAssertEqual(Set(buttons.filter { $0.hasPrefix("Decline invitation to ") }),
                       Set(names.map { "Decline invitation to \($0)" }), "\(buttons)")

        // Decline All asks first, then declines every one through the server.
        _ = try Self.probe(["--click", "Decline All Invitations", "--click", "Decline All"])
        let deadline = Date().addingTimeInterval(120)
        repeat {
            buttons = try Self.probeButtons()
            usleep(500_000)
        } while Date() < deadline && buttons.contains { $0.hasPrefix("Decline") }
        XCTAssertFalse(buttons.contains { $0.hasPrefix("Decline") }, "\(buttons)\n\(app.output)")
        XCTAssertEqual(warningLines(in: app.output), [])
        app.process.terminate()
        app.waitForExit(seconds: 30)

        // The server agrees: signed in afresh, the first sync brings no invitation back.
        let elsewhere = try ScratchFolder()
        let environment = ["XDG_DATA_HOME": elsewhere.path("data")]
        let login = try ChildProcess(harkExecutable, ["account", "login", "--homeserver", session.homeserver, "--user", "fiona"],
                                     environment: environment, input: Self.password)
        XCTAssertEqual(login.waitForExit(seconds: 120), 0, login.output)
        let rooms = try ChildProcess.run(harkExecutable, ["rooms"], environment: environment, seconds: 120)
        XCTAssertEqual(rooms.status, 0, rooms.output)
        XCTAssertFalse(rooms.output.contains("invited"), rooms.output)
    }
}
