import AudioEngine
import CGLib
import CGStreamer
import GLibSupport
import XCTest

@MainActor
private func launch(_ description: String) throws -> ObjectRef {
    let pipeline = try withGError { gst_parse_launch(description, $0) }
    return ObjectRef(retaining: UnsafeMutableRawPointer(try XCTUnwrap(pipeline)))
}

final class BusWatchTests: XCTestCase {
    override func setUp() {
        XCTAssertTrue(GStreamer.ensureInitialised(), "gst_init_check failed")
    }

    func testBusWatchDeliversEndOfStreamFromARealPipeline() throws {
        try onMainActor {
            let pipeline = try launch("audiotestsrc num-buffers=20 ! audioconvert ! fakesink")
            defer { gst_element_set_state(pipeline.as(GstElement.self), GST_STATE_NULL) }
            var types: [GstMessageType] = []
            let watch = try XCTUnwrap(BusWatch(element: pipeline.as(GstElement.self)) { message in
                types.append(message.type)
                return !message.isEndOfStream
            })
            gst_element_set_state(pipeline.as(GstElement.self), GST_STATE_PLAYING)
            XCTAssertTrue(MainLoop.iterate(until: { types.contains(GST_MESSAGE_EOS) }, timeout: 10))
            XCTAssertFalse(types.contains(GST_MESSAGE_ERROR))
            // A bus takes one watch at a time: another is taken only once the first is gone.
            XCTAssertNotNil(BusWatch(element: pipeline.as(GstElement.self)) { _ in true }, "returning false removed the watch")
            withExtendedLifetime(watch) {}
        }
    }

    func testLevelMessagesCarryReadableArrays() throws {
        try onMainActor {
            // A full-scale sine has an RMS of 1/√2: -3.01 dBFS.
            let pipeline = try launch(
                "audiotestsrc num-buffers=10 wave=sine volume=1.0 ! audio/x-raw,channels=1,rate=48000 "
                + "! level interval=50000000 post-messages=true ! fakesink")
            defer { gst_element_set_state(pipeline.as(GstElement.self), GST_STATE_NULL) }
            var rms: [Double] = []
            var done = false
            let watch = BusWatch(element: pipeline.as(GstElement.self)) { message in
                if message.structureName == "level", let values = message.doubles("rms") {
                    rms.append(contentsOf: values)
                    XCTAssertNil(message.doubles("no-such-field"))
                }
                done = message.isEndOfStream || message.isError
                return !done
            }
            XCTAssertNotNil(watch)
            gst_element_set_state(pipeline.as(GstElement.self), GST_STATE_PLAYING)
            withExtendedLifetime(watch) {
                XCTAssertTrue(MainLoop.iterate(until: { done }, timeout: 10))
            }
            let first = try XCTUnwrap(rms.first)
            XCTAssertEqual(first, -3.01, accuracy: 0.1)
        }
    }

    func testErrorsArriveAsGLibErrors() throws {
        try onMainActor {
            let pipeline = try launch("filesrc location=/nonexistent/hark.ogg ! fakesink")
            defer { gst_element_set_state(pipeline.as(GstElement.self), GST_STATE_NULL) }
            var failure: GLibError?
            let watch = BusWatch(element: pipeline.as(GstElement.self)) { message in
                if let (error, _) = message.error { failure = error }
                return !message.isError
            }
            XCTAssertNotNil(watch)
            gst_element_set_state(pipeline.as(GstElement.self), GST_STATE_PLAYING)
            withExtendedLifetime(watch) {
                XCTAssertTrue(MainLoop.iterate(until: { failure != nil }, timeout: 10))
            }
            XCTAssertEqual(failure?.domain, "gst-resource-error-quark")
            XCTAssertTrue(failure?.message.isEmpty == false)
        }
    }

    func testSecondWatchOnTheSameBusIsRefused() throws {
        try onMainActor {
            let pipeline = try launch("fakesrc ! fakesink")
            let first = BusWatch(element: pipeline.as(GstElement.self)) { _ in true }
            XCTAssertNotNil(first)
            XCTAssertNil(BusWatch(element: pipeline.as(GstElement.self)) { _ in true })
            first?.remove()
            XCTAssertNotNil(BusWatch(element: pipeline.as(GstElement.self)) { _ in true })
        }
    }

    func testParseErrorsThrow() {
        onMainActor {
            do {
                _ = try withGError { gst_parse_launch("no-such-element-hark", $0) }
                XCTFail("an unknown element must not parse")
            } catch let error as GLibError {
                XCTAssertTrue(error.message.contains("no-such-element-hark"), error.message)
            } catch {
                XCTFail("unexpected error \(error)")
            }
        }
    }
}
