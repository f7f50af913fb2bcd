import Foundation
import HarkTestSupport
import XCTest

/// What a broken or hostile homeserver answers reaches the user as a
/// sentence for people, with the server's own text only behind "details":
/// never a proxy's HTML page, never Swift's DecodingError. A login flow of a
/// shape Hark does not know does not hide the password flow beside it. (A
/// broken server of the tests' own: Synapse answers none of this.)
final class ServerAnswerTests: XCTestCase {
    private func login(_ server: BrokenServer) throws -> String {
        let home = try ScratchFolder()
        let child = try ChildProcess(harkExecutable, ["account", "login", "--homeserver", server.url, "--user", "ines"],
                                     environment: ["XDG_DATA_HOME": home.url.path], input: "password\n")
        XCTAssertEqual(child.waitForExit(seconds: 60), 1, child.output)
        return child.output
    }

    func testAnHTMLErrorPageIsASentenceWithThePageInTheDetails() throws {
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let page = "<html><head><title>500 Internal Server Error</title></head><body><h1>nginx</h1></body></html>"
        let server = try BrokenServer(routes: ["/_matrix/client/v3/login": .init(status: 500, headers: ["Content-Type": "text/html"],
                                                                                 body: Data(page.utf8))])
        defer { server.stop() }
        let output = try login(server)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("hark: The server has a problem of its own (HTTP 500): try again later."), output)
        XCTAssertTrue(lines.contains("hark: details: HTTP 500: " + page), output)
        XCTAssertEqual(lines.filter { $0.contains("<html>") }.count, 1, "the page is in the details only: \(output)")
    }

    func testAnAnswerOfTheWrongShapeIsASentenceAndAnUnknownFlowIsSkipped() throws {
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        // The flows offer a password beside one of an unknown shape; the login's answer has no user id.
        let server = try BrokenServer(routes: ["/_matrix/client/v3/login": .json(
            #"{"flows":[{"type":7,"stages":[]},{"type":"m.login.password"}],"access_token":5}"#)])
        defer { server.stop() }
        let output = try login(server)
        let host = String(server.url.dropFirst("http://".count))
        XCTAssertTrue(output.contains("hark: \(host) gave an answer Hark does not understand.\n"), output)
        XCTAssertFalse(output.contains("signs in only through its own web page"), "the password flow was seen: \(output)")
        XCTAssertTrue(output.contains("hark: details: POST /_matrix/client/v3/login"), output)
        let sentences = output.split(separator: "\n").filter { !$0.hasPrefix("hark: details:") }
        XCTAssertFalse(sentences.contains { $0.contains("keyNotFound") || $0.contains("typeMismatch") || $0.contains("Decoding") },
                       "Swift's decoding error only in the details: \(output)")
    }
}
