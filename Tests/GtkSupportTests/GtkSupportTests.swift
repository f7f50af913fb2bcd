import CGLib
import CGtk
import CTestSignals
import GLibSupport
import GtkSupport
import XCTest

/// GTK-bound helpers, with GTK initialised on a display (`make test` runs
/// this target under Xvfb). Synchronous XCTest methods on the main thread,
/// as in GLibSupportTests.
private func withGtk(_ body: @MainActor () throws -> Void) throws {
    guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
        XCTFail("GTK tests need a display: run them with `make test` or under `xvfb-run -a`")
        return
    }
    try MainActor.assumeIsolated {
        XCTAssertEqual(gtk_init_check(), 1, "gtk_init_check failed")
        MainLoop.bridgeSwiftConcurrency()
        try body()
    }
}

private final class LifetimeProbe: @unchecked Sendable {}

final class DrawingAreaTests: XCTestCase {
    func testDrawClosureGetsTheAreaSizeAndIsReleasedWithTheWidget() throws {
        try withGtk {
            var probe: LifetimeProbe? = LifetimeProbe()
            weak let watched = probe
            var sizes: [[Int]] = []
            let window = gtk_window_new()!
            let area = gtk_drawing_area_new()!
            gtk_drawing_area_set_content_width(hark_drawing_area(area), 120)
            gtk_drawing_area_set_content_height(hark_drawing_area(area), 40)
            DrawingArea.setDraw(hark_drawing_area(area)) { [probe] cairo, width, height in
                _ = probe
                sizes.append([width, height])
                // A real cairo context: drawing into it must work.
                cairo_set_source_rgb(cairo, 1, 0, 0)
                cairo_paint(cairo)
                XCTAssertEqual(cairo_status(cairo), CAIRO_STATUS_SUCCESS)
            }
            probe = nil
            gtk_window_set_child(hark_window(window), area)
            gtk_window_set_resizable(hark_window(window), 0)
            gtk_window_present(hark_window(window))
            XCTAssertTrue(MainLoop.iterate(until: { !sizes.isEmpty }, timeout: 5), "the draw func never ran")
            XCTAssertEqual(sizes.first, [120, 40])
            XCTAssertNotNil(watched)

            gtk_window_destroy(hark_window(window))
            MainLoop.iterate(until: { watched == nil }, timeout: 2)
            XCTAssertNil(watched, "destroying the area released the draw closure")
        }
    }

    func testReplacingTheDrawClosureReleasesThePreviousOne() throws {
        try withGtk {
            var probe: LifetimeProbe? = LifetimeProbe()
            weak let watched = probe
            let area = gtk_drawing_area_new()!
            g_object_ref_sink(area)
            defer { g_object_unref(area) }
            DrawingArea.setDraw(hark_drawing_area(area)) { [probe] _, _, _ in _ = probe }
            probe = nil
            XCTAssertNotNil(watched)
            DrawingArea.setDraw(hark_drawing_area(area)) { _, _, _ in }
            XCTAssertNil(watched)
        }
    }
}

final class GtkSignalShapeTests: XCTestCase {
    func testPressPointAndKeyHandlersReceiveTheirArguments() throws {
        try withGtk {
            let click = ObjectRef(owning: UnsafeMutableRawPointer(gtk_gesture_click_new()))
            var pressed: [Double] = []
            Signal.connectPress(click.pointer, "pressed") { count, x, y in pressed = [Double(count), x, y] }
            hark_test_emit_int_double_double(click.pointer, "pressed", 2, 10.5, 20.25)
            XCTAssertEqual(pressed, [2, 10.5, 20.25])

            let drag = ObjectRef(owning: UnsafeMutableRawPointer(gtk_gesture_drag_new()))
            var offset: [Double] = []
            Signal.connectPoint(drag.pointer, "drag-update") { x, y in offset = [x, y] }
            hark_test_emit_double_double(drag.pointer, "drag-update", -3.5, 7)
            XCTAssertEqual(offset, [-3.5, 7])

            let keys = ObjectRef(owning: UnsafeMutableRawPointer(gtk_event_controller_key_new()))
            var seen: [UInt32] = []
            Signal.connectKey(keys.pointer, "key-pressed") { keyval, keycode, state in
                seen = [keyval, keycode, state]
                return keyval == UInt32(GDK_KEY_space)
            }
            XCTAssertEqual(hark_test_emit_key(keys.pointer, "key-pressed", guint(GDK_KEY_space), 65, 4), 1)
            XCTAssertEqual(seen, [UInt32(GDK_KEY_space), 65, 4])
            XCTAssertEqual(hark_test_emit_key(keys.pointer, "key-pressed", guint(GDK_KEY_a), 38, 0), 0)

            let chooser = ObjectRef(owning: UnsafeMutableRawPointer(
                gtk_file_chooser_native_new("Test", nil, GTK_FILE_CHOOSER_ACTION_OPEN, nil, nil)))
            var response: Int?
            Signal.connectInt(chooser.pointer, "response") { response = $0 }
            hark_test_emit_int(chooser.pointer, "response", Int32(GTK_RESPONSE_ACCEPT.rawValue))
            XCTAssertEqual(response, Int(GTK_RESPONSE_ACCEPT.rawValue))

            let drop = ObjectRef(owning: UnsafeMutableRawPointer(gtk_drop_target_new(hark_type_string(), GDK_ACTION_COPY)))
            var dropped: [Double] = []
            var value = GValue()
            g_value_init(&value, hark_type_string())
            g_value_set_string(&value, "dropped")
            defer { g_value_unset(&value) }
            Signal.connectDrop(drop.pointer, "drop") { pointer, x, y in
                let text = pointer.flatMap { g_value_get_string($0.assumingMemoryBound(to: GValue.self)) }
                dropped = [x, y, text.map { String(cString: $0) } == "dropped" ? 1 : 0]
                return true
            }
            XCTAssertEqual(hark_test_emit_pointer_double_double(drop.pointer, "drop", &value, 4, 8), 1)
            XCTAssertEqual(dropped, [4, 8, 1])
        }
    }

    func testActionRunsItsClosureAndKeepsItsAccels() throws {
        try withGtk {
            let app = ObjectRef(owning: UnsafeMutableRawPointer(
                gtk_application_new("io.github.hark.GtkSupportTests", G_APPLICATION_NON_UNIQUE)))
            _ = try withGError { g_application_register(app.as(GApplication.self), nil, $0) }
            var activations = 0
            Actions.add(to: app.pointer, "poke") { activations += 1 }
            g_action_group_activate_action(app.opaque, "poke", nil)
            XCTAssertEqual(activations, 1)

            Actions.setAccels(app.as(GtkApplication.self), "app.poke", ["<Control>p", "F5"])
            XCTAssertEqual(Actions.accels(app.as(GtkApplication.self), "app.poke"), ["<Control>p", "F5"])
        }
    }
}

final class WidgetLifetimeTests: XCTestCase {
    func testSourcesTiedToAWidgetNeverRunAfterItIsDestroyed() throws {
        try withGtk {
            let window = gtk_window_new()!
            let label = gtk_label_new("tied")!
            gtk_window_set_child(hark_window(window), label)
            let lifetime = WidgetLifetime(of: label)
            var ranWhileAlive = false, ranAfter = false, ticksAfter = 0
            lifetime.idle { ranWhileAlive = true; return false }
            XCTAssertTrue(MainLoop.iterate(until: { ranWhileAlive }, timeout: 2), "an idle runs while the widget lives")

            lifetime.idle { ranAfter = true; return false }
            lifetime.timeout(milliseconds: 1) { ticksAfter += 1; return true }
            gtk_window_destroy(hark_window(window))  // the label goes with its window
            XCTAssertFalse(lifetime.isAlive, "the widget's destroy ends the lifetime")
            MainLoop.iterate(until: { false }, timeout: 0.1)
            XCTAssertFalse(ranAfter, "an idle queued before the destroy never ran after it")
            XCTAssertEqual(ticksAfter, 0, "a repeating timeout stopped with the widget")
            XCTAssertNil(lifetime.idle { ranAfter = true; return false }, "nothing is scheduled once the widget is gone")
        }
    }
}

final class FirstFrameTests: XCTestCase {
    func testWorkWaitsForTheFirstPaintedFrameAndRunsOnce() throws {
        try withGtk {
            let window = gtk_window_new()!
            let lifetime = WidgetLifetime(of: window)
            var painted = 0, ran = 0, paintedWhenRun = -1
            FirstFrame.after(window, lifetime: lifetime) {
                ran += 1
                paintedWhenRun = painted
            }
            MainLoop.iterate(until: { false }, timeout: 0.3)
            XCTAssertEqual(ran, 0, "not while the window is not shown")

            gtk_window_present(hark_window(window))
            let clock = try XCTUnwrap(gtk_widget_get_frame_clock(window))
            Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") { painted += 1 }
            XCTAssertTrue(MainLoop.iterate(until: { ran > 0 }, timeout: 5), "runs once the window is shown")
            XCTAssertGreaterThan(paintedWhenRun, 0, "after a frame was painted")
            gtk_widget_queue_draw(window)
            MainLoop.iterate(until: { false }, timeout: 0.2)
            XCTAssertEqual(ran, 1, "once")

            // A widget destroyed before its first frame never runs it.
            let other = gtk_window_new()!
            var ranForOther = false
            FirstFrame.after(other, lifetime: WidgetLifetime(of: other)) { ranForOther = true }
            gtk_window_present(hark_window(other))
            gtk_window_destroy(hark_window(other))
            MainLoop.iterate(until: { false }, timeout: 0.3)
            XCTAssertFalse(ranForOther)
            gtk_window_destroy(hark_window(window))
        }
    }
}

final class AnimationSettingTests: XCTestCase {
    /// The setting is kept, not read at each frame: the kept value must
    /// follow the user turning animations off and on again.
    func testTheKeptSettingFollowsTheUsersChoice() throws {
        try withGtk {
            let settings = UnsafeMutableRawPointer(try XCTUnwrap(gtk_settings_get_default()))
            let original = hark_object_get_bool(settings, "gtk-enable-animations")
            defer { hark_object_set_bool(settings, "gtk-enable-animations", original) }
            hark_object_set_bool(settings, "gtk-enable-animations", 1)
            XCTAssertTrue(FrameClock.animationsEnabled)
            hark_object_set_bool(settings, "gtk-enable-animations", 0)
            XCTAssertFalse(FrameClock.animationsEnabled, "turned off")
            hark_object_set_bool(settings, "gtk-enable-animations", 1)
            XCTAssertTrue(FrameClock.animationsEnabled, "and on again")
        }
    }
}
