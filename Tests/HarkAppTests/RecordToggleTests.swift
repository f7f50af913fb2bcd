import Foundation
import HarkTestSupport
import XCTest

/// The record key anywhere (a GNOME custom shortcut running
/// `hark record --toggle`): pressed twice, it starts a recording in the
/// running window (or opens the window and starts) and stops it, making
/// exactly one message.
final class RecordToggleTests: XCTestCase {
    private let driver = AppDriver()

    func testRecordToggleTwiceMakesExactlyOneMessageInTheRunningWindow() throws {
        let data = try ScratchFolder()
        let app = try ChildProcess(harkExecutable, [], environment: environment(data))
        try driver.waitFor("the Record button") { try driver.buttons().contains("Record") }
        let start = try ChildProcess.run(harkExecutable, ["record", "--toggle"], environment: environment(data))
        XCTAssertEqual(start.status, 0, "handed to the window: \(start.output)")
        try recordsThenStops(app, data, others: [start.output])
    }

    func testRecordToggleWithNoWindowOpensItRecording() throws {
        let data = try ScratchFolder()
        let app = try ChildProcess(harkExecutable, ["record", "--toggle"], environment: environment(data))
        try recordsThenStops(app, data, others: [])
    }

    /// The window records; a second toggle stops it and one message is saved.
    private func recordsThenStops(_ app: ChildProcess, _ data: ScratchFolder, others: [String]) throws {
        try driver.waitFor("the window records") { try driver.buttons().contains("Stop") }
        XCTAssertTrue(app.isRunning, app.output)
        sleep(1)  // a second of tone in the take
        let stop = try ChildProcess.run(harkExecutable, ["record", "--toggle"], environment: environment(data))
        XCTAssertEqual(stop.status, 0, stop.output)
        let list = { try ChildProcess.run(harkExecutable, ["list", "--json"], environment: self.environment(data)).output }
        try driver.waitFor("the take saved") { try list().contains("\"state\":\"ready\"") }
        try driver.waitFor("the window records no more") { try driver.buttons().contains("Record") }
        let listed = try list()
        XCTAssertEqual(listed.components(separatedBy: "\"id\":").count - 1, 1, "exactly one message: \(listed)")
        XCTAssertEqual(try driver.quit(app), 0, app.output)
        XCTAssertEqual(warningLines(in: ([app.output, stop.output] + others).joined(separator: "\n")), [])
    }

    private func environment(_ data: ScratchFolder) -> [String: String] {
        ["XDG_DATA_HOME": data.url.path, "HOME": data.url.path,
         "HARK_RECORD_SOURCE": "audiotestsrc is-live=true wave=sine volume=0.3"]
    }
}
