import Foundation
import HarkTestSupport
import XCTest

/// The `hark` binary's own command line, run as a user would run it.
final class CommandLineTests: XCTestCase {
    func testHelpListsTheCommandsAndExitsZero() throws {
        for flag in ["--help", "-h", "help"] {
            let (status, output) = try ChildProcess.run(harkExecutable, [flag])
            XCTAssertEqual(status, 0, flag)
            XCTAssertTrue(output.hasPrefix("Usage: hark"), output)
            XCTAssertTrue(output.contains("--version"), output)
            XCTAssertTrue(output.contains("--help"), output)
        }
    }

    func testVersionPrintsNameAndVersion() throws {
        let (status, output) = try ChildProcess.run(harkExecutable, ["--version"])
        XCTAssertEqual(status, 0)
        XCTAssertNotNil(output.range(of: #"^hark \d+\.\d+\.\d+\n$"#, options: .regularExpression), output)
    }

    func testUnknownCommandGivesOneLineAndStatusTwo() throws {
        let (status, output) = try ChildProcess.run(harkExecutable, ["frobnicate"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(output.split(separator: "\n").count, 1, output)
        XCTAssertTrue(output.contains("unknown command 'frobnicate'"), output)
    }

    func testUnknownOptionGivesOneLineAndStatusTwo() throws {
        for arguments in [["--frobnicate"], ["-x"], ["--version", "extra"], ["--help", "extra"]] {
            let (status, output) = try ChildProcess.run(harkExecutable, arguments)
            XCTAssertEqual(status, 2, "\(arguments)")
            XCTAssertEqual(output.split(separator: "\n").count, 1, output)
            XCTAssertTrue(output.hasPrefix("hark: "), output)
        }
    }
}
