import CGtk
import Foundation
import GLibSupport
import HarkTestSupport
@testable import HarkUI
import MessageStore
import StoreAudio
import XCTest

/// The window's Export… writes as the command line does (`ExportWriter`), and
/// closing the window (Ctrl+Q, a session ending) in the middle of a long one
/// leaves nothing half-written in the user's folder.
final class ExportOnCloseTests: XCTestCase {
    func testClosingTheWindowDuringALongExportRemovesThePartialFile() throws {
        let scratch = try ScratchFolder()
        let long = scratch.path("long.wav")
        try WAVFile.write([WAVFile.Section(seconds: 900, amplitude: 0.3)], rate: 8_000, to: URL(fileURLWithPath: long))
        let out = scratch.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        func hidden() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasPrefix(".") }
        }
        try onMainActor { try withGtk {
            let store = try MessageStore(folder: scratch.url.appendingPathComponent("hark"))
            let message = try store.importFile(long)
            var (window, app): (MainWindow?, HarkApplication) = try WindowFixture.makeWindow(store)
            window?.present()
            settle()
            let target = out + "/long.mp3"
            window?.exporter?.export(source: try store.exportSource(message.id), title: message.title, to: target,
                                     format: .mp3, overwrite: false)
            XCTAssertTrue(MainLoop.iterate(until: { !hidden().isEmpty }, timeout: 60), "the export began")
            gtk_window_close(try XCTUnwrap(window?.window))
            XCTAssertEqual(hidden(), [], "the partial file went when the window closed")
            window = nil  // as the application forgets its window once GTK destroys it
            settle(seconds: 0.5)  // the export's thread stops
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing was written")
            withExtendedLifetime(app) {}
        } }
    }
}
