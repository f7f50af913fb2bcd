@testable import Transcription
import XCTest

/// A message's deadline in the time its helper could have run, from readings
/// of its threads' waits for a core (nanoseconds by thread id): pure, no process.
final class EffectiveDeadlineTests: XCTestCase {
    private static let second: UInt64 = 1_000_000_000

    func testAHelperThatNeverWaitsHasItsDeadlineOnTheClock() {
        // Hung asleep or stopped, or spinning on cores nobody else wants.
        var deadline = EffectiveDeadline(seconds: 10, start: 100, reading: [7: 5 * Self.second])
        XCTAssertEqual(deadline.remaining(at: 104, reading: [7: 5 * Self.second]), 6)
        XCTAssertEqual(deadline.remaining(at: 110, reading: [7: 5 * Self.second]), 0)
        XCTAssertEqual(deadline.remaining(at: 500, reading: [7: 5 * Self.second]), 0)
    }

    func testTimeSpentWaitingForACoreDoesNotCount() {
        var deadline = EffectiveDeadline(seconds: 10, start: 0, reading: [7: 0])
        XCTAssertEqual(deadline.remaining(at: 10, reading: [7: 10 * Self.second]), 10, "starved all along")
        XCTAssertEqual(deadline.remaining(at: 100, reading: [7: 100 * Self.second]), 10, "as long as the machine is busy")
        XCTAssertEqual(deadline.remaining(at: 106, reading: [7: 100 * Self.second]), 4, "then it runs")
        XCTAssertEqual(deadline.remaining(at: 110, reading: [7: 100 * Self.second]), 0)
    }

    func testOnlyTheWaitSinceTheMessageStartedCounts() {
        var deadline = EffectiveDeadline(seconds: 10, start: 50, reading: [7: 40 * Self.second])
        XCTAssertEqual(deadline.remaining(at: 60, reading: [7: 43 * Self.second]), 3)
    }

    func testTheLongestThreadsWaitCountsNeverMoreThanTheTimeThatPassed() {
        var deadline = EffectiveDeadline(seconds: 10, start: 0, reading: [1: 0, 2: 0, 3: 0])
        XCTAssertEqual(deadline.remaining(at: 8, reading: [1: 0, 2: 3 * Self.second, 3: 2 * Self.second]), 5)
        XCTAssertEqual(deadline.remaining(at: 9, reading: [1: 0, 2: 9 * Self.second, 3: 10 * Self.second]), 10,
                       "waits of more than the time that passed: not below zero")
        XCTAssertEqual(EffectiveDeadline.effectiveElapsed(elapsed: 9, waited: 18), 0)
        XCTAssertEqual(EffectiveDeadline.effectiveElapsed(elapsed: 9, waited: 2), 7)
        XCTAssertEqual(EffectiveDeadline.effectiveElapsed(elapsed: 9, waited: 0), 9)
    }

    /// Two busy threads on one core (or more threads than cores) wait for
    /// each other, half the time each: that is the helper running slowly,
    /// not starved, and its deadline still passes, later.
    func testThreadsWaitingForEachOtherStretchTheDeadlineButDoNotStopIt() {
        var deadline = EffectiveDeadline(seconds: 10, start: 0, reading: [1: 0, 2: 0])
        XCTAssertEqual(deadline.remaining(at: 10, reading: [1: 5 * Self.second, 2: 5 * Self.second]), 5)
        XCTAssertEqual(deadline.remaining(at: 20, reading: [1: 10 * Self.second, 2: 10 * Self.second]), 0)
    }

    func testAThreadThatEndedKeepsItsWaitAndANewOneCountsAllOfIts() {
        var wait = RunQueueWait(firstReading: [1: 10, 2: 100])
        wait.add([1: 15, 2: 130])
        XCTAssertEqual(wait.nanoseconds, 30, "the longer of the two waits")
        wait.add([1: 20])  // 2 ended
        XCTAssertEqual(wait.nanoseconds, 35)
        wait.add([1: 20, 3: 7])  // 3 started after the first reading
        XCTAssertEqual(wait.nanoseconds, 42)
        wait.add([1: 20, 3: 7, 2: 140])  // 2's id taken by a new thread (which waited more than the old one)
        XCTAssertEqual(wait.nanoseconds, 182)
        wait.add([1: 20, 3: 2, 2: 140])  // 3's too, between two readings (a new thread that waited less)
        XCTAssertEqual(wait.nanoseconds, 184)
    }

    func testTheWaitIsSchedstatsSecondField() {
        XCTAssertEqual(ThreadWaits.runDelay(schedstat: "628296078 223115126 319\n"), 223_115_126)
        XCTAssertEqual(ThreadWaits.runDelay(schedstat: "0 0 1"), 0)
        XCTAssertNil(ThreadWaits.runDelay(schedstat: ""))
        XCTAssertNil(ThreadWaits.runDelay(schedstat: "12 34\n"))
        XCTAssertNil(ThreadWaits.runDelay(schedstat: "12 x 3\n"))
    }
}
