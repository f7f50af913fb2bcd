import CGLib
import GLibSupport
import XCTest

final class SignalTests: XCTestCase {
    func testClosureFiresOnRealSignal() {
        onMainActor {
            let cancellable = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()))
            var fired = 0
            cancellable.connect("cancelled") { fired += 1 }
            XCTAssertEqual(fired, 0)
            g_cancellable_cancel(cancellable.as(GCancellable.self))
            XCTAssertEqual(fired, 1)
        }
    }

    func testPointerArgumentReachesTheClosure() {
        onMainActor {
            let stringType = g_variant_type_new("s")
            defer { g_variant_type_free(stringType) }
            let action = ObjectRef(owning: UnsafeMutableRawPointer(g_simple_action_new("say", stringType)))
            var received: String?
            action.connectPointer("activate") { parameter in
                received = parameter.map { String(cString: g_variant_get_string(OpaquePointer($0), nil)) }
            }
            g_action_activate(action.opaque, g_variant_new_string("hello"))
            XCTAssertEqual(received, "hello")
        }
    }

    func testBoolReturnReachesTheEmitter() {
        onMainActor {
            // GApplication's "name-lost" returns gboolean and is emitted by GIO.
            let app = ObjectRef(owning: UnsafeMutableRawPointer(
                g_application_new("io.github.hark.SignalTest", G_APPLICATION_NON_UNIQUE)))
            var calls = 0
            app.connectReturning("name-lost") { calls += 1; return true }
            let handled = hark_signal_emit_returning_bool(app.pointer, "name-lost")
            XCTAssertEqual(calls, 1)
            XCTAssertEqual(handled, 1)
        }
    }

    func testClosureIsReleasedWhenTheObjectDies() {
        onMainActor {
            var probe: LifetimeProbe? = LifetimeProbe()
            weak let watched = probe
            var cancellable: ObjectRef? = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()))
            cancellable!.connect("cancelled") { [probe] in _ = probe }
            probe = nil
            XCTAssertNotNil(watched, "the connection keeps the closure alive")
            cancellable = nil
            XCTAssertNil(watched, "the destroy notify released the closure with the object")
        }
    }

    func testDisconnectReleasesTheClosureAndStopsIt() {
        onMainActor {
            var probe: LifetimeProbe? = LifetimeProbe()
            weak let watched = probe
            let cancellable = ObjectRef(owning: UnsafeMutableRawPointer(g_cancellable_new()))
            var fired = false
            let id = cancellable.connect("cancelled") { [probe] in _ = probe; fired = true }
            XCTAssertNotEqual(id, 0)
            probe = nil
            cancellable.disconnect(id)
            XCTAssertNil(watched)
            g_cancellable_cancel(cancellable.as(GCancellable.self))
            XCTAssertFalse(fired)
        }
    }

    func testOwnedReferenceIsDroppedOnDeinit() {
        onMainActor {
            let raw = UnsafeMutableRawPointer(g_cancellable_new())!
            g_object_ref(raw)  // our own reference, to look at the count afterwards
            var owner: ObjectRef? = ObjectRef(owning: raw)
            XCTAssertEqual(owner?.as(GObject.self).pointee.ref_count, 2)
            owner = nil
            XCTAssertEqual(raw.assumingMemoryBound(to: GObject.self).pointee.ref_count, 1)
            g_object_unref(raw)
        }
    }

    func testFloatingReferenceIsSunk() {
        onMainActor {
            // GInitiallyUnowned starts floating, like GTK widgets and GStreamer elements.
            let raw = g_object_new_with_properties(g_initially_unowned_get_type(), 0, nil, nil)!
            let owner = ObjectRef(retaining: UnsafeMutableRawPointer(raw))
            XCTAssertEqual(g_object_is_floating(owner.pointer), 0)
            XCTAssertEqual(owner.as(GObject.self).pointee.ref_count, 1)
        }
    }
}
