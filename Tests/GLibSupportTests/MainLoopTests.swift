import CGLib
import CHelpers
import Dispatch
import GLibSupport
import XCTest

final class MainLoopTests: XCTestCase {
    func testMainActorTaskRunsWhileTheGLibLoopIterates() {
        onMainActor {
            var steps: [String] = []
            Task { @MainActor in
                steps.append("task")
                // A suspension and a hop back through the main queue.
                await Task.yield()
                steps.append("resumed")
            }
            XCTAssertEqual(steps, [], "nothing runs until the GLib loop iterates")
            XCTAssertTrue(MainLoop.iterate(until: { steps.count == 2 }, timeout: 5))
            XCTAssertEqual(steps, ["task", "resumed"])
        }
    }

    func testBridgeLeavesTheLoopIdleOnceTheQueueIsDrained() {
        onMainActor {
            var done = false
            Task { @MainActor in done = true }
            XCTAssertTrue(MainLoop.iterate(until: { done }, timeout: 5))
            // Dispatch whatever else is ready, then nothing may stay ready: a
            // bridge that left its eventfd readable would spin the loop at 100% CPU.
            var spins = 0
            while g_main_context_iteration(nil, 0) != 0 && spins < 100 { spins += 1 }
            XCTAssertEqual(g_main_context_pending(nil), 0, "the loop is busy with nothing to do")
            XCTAssertLessThan(spins, 100)
        }
    }

    func testMainActorRunFromABackgroundThreadLandsOnTheMainThread() {
        onMainActor {
            let ranOnMainThread = MainActorBox<Bool?>(nil)
            Task.detached {
                let onMain = await MainActor.run { hark_is_process_main_thread() != 0 }
                await MainActor.run { ranOnMainThread.value = onMain }
            }
            XCTAssertTrue(MainLoop.iterate(until: { ranOnMainThread.value != nil }, timeout: 5))
            XCTAssertEqual(ranOnMainThread.value, true)
        }
    }

    func testPostFromAnotherThreadRunsOnTheMainThread() {
        onMainActor {
            let result = MainActorBox<Bool?>(nil)
            DispatchQueue.global().async {
                MainLoop.post { result.value = hark_is_process_main_thread() != 0 }
            }
            XCTAssertTrue(MainLoop.iterate(until: { result.value != nil }, timeout: 5))
            XCTAssertEqual(result.value, true)
        }
    }

    func testTimeoutRepeatsWhileItReturnsTrue() {
        onMainActor {
            var ticks = 0
            MainLoop.timeout(milliseconds: 5) {
                ticks += 1
                return ticks < 3
            }
            XCTAssertTrue(MainLoop.iterate(until: { ticks == 3 }, timeout: 5))
            // It removed itself: no fourth tick however long the loop runs.
            XCTAssertFalse(MainLoop.iterate(until: { ticks > 3 }, timeout: 0.1))
        }
    }

    func testRemovedSourceNeverFiresAndReleasesItsClosure() {
        onMainActor {
            var probe: LifetimeProbe? = LifetimeProbe()
            weak let watched = probe
            var fired = false
            let source = MainLoop.idle { [probe] in _ = probe; fired = true; return false }
            probe = nil
            XCTAssertNotNil(watched)
            source.remove()
            XCTAssertNil(watched)
            XCTAssertFalse(MainLoop.iterate(until: { fired }, timeout: 0.1))
        }
    }

    func testIterateGivesUpAtTheTimeout() {
        onMainActor {
            let start = g_get_monotonic_time()
            XCTAssertFalse(MainLoop.iterate(until: { false }, timeout: 0.2))
            XCTAssertGreaterThanOrEqual(g_get_monotonic_time() - start, 200_000)
        }
    }
}
