import Foundation
import HarkTestSupport
import XCTest

/// `hark list` speaks up when there is nothing to list, and writes durations
/// as the window does.
final class ListCommandTests: XCTestCase {
    /// Runs hark through the shell to read stdout and stderr apart.
    private func hark(_ arguments: String, keep stream: String, home: ScratchFolder) throws -> String {
        let redirect = stream == "stdout" ? "2>/dev/null" : "2>&1 >/dev/null"
        let (status, output) = try ChildProcess.run("/bin/sh", ["-c", "\"$HARK\" \(arguments) \(redirect)"],
                                                    environment: ["HARK": harkExecutable, "XDG_DATA_HOME": home.url.path])
        XCTAssertEqual(status, 0, output)
        return output
    }

    func testAnEmptyStoreSaysNoMessagesOnStandardErrorAndJSONIsAnEmptyList() throws {
        let home = try ScratchFolder()
        XCTAssertEqual(try hark("list", keep: "stdout", home: home), "", "no lines for a script to read")
        XCTAssertEqual(try hark("list", keep: "stderr", home: home).trimmingCharacters(in: .whitespacesAndNewlines),
                       "hark: No messages")
        XCTAssertEqual(try hark("list --json", keep: "stdout", home: home).trimmingCharacters(in: .whitespacesAndNewlines), "[]")
    }

    func testDurationsAreRoundedAsInTheWindow() throws {
        let home = try ScratchFolder()
        let (status, output) = try ChildProcess.run(harkExecutable, ["record", "--raw", "--duration", "0.92", "--source",
                                                                     "audiotestsrc wave=sine volume=0.3"],
                                                    environment: ["XDG_DATA_HOME": home.url.path])
        XCTAssertEqual(status, 0, output)
        let listed = try hark("list", keep: "stdout", home: home)
        XCTAssertTrue(listed.contains("  0:01  ready  "), "a 0.92 s message is 0:01, as the window shows it: \(listed)")
        XCTAssertEqual(try hark("list", keep: "stderr", home: home), "", "nothing to say when there are messages")
    }
}
