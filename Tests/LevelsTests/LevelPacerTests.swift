import Levels
import XCTest

final class LevelPacerTests: XCTestCase {
    /// Readings in pairs (the sound server's 100 ms hand-overs) come out one
    /// per tick: the first of a pair at once, the second a tick later.
    func testPairsComeOutOnePerTick() {
        var pacer = LevelPacer<Int>()
        var shown: [[Int]] = []
        for pair in stride(from: 0, to: 8, by: 2) {
            shown.append([pacer.arrive(pair)].compactMap { $0 })
            XCTAssertNil(pacer.arrive(pair + 1), "the second of a pair waits")
            XCTAssertTrue(pacer.isTicking)
            shown.append(pacer.tick())
            XCTAssertFalse(pacer.isTicking, "with none waiting the timer stops: the next pair's first shows at once")
        }
        XCTAssertEqual(shown, [[0], [1], [2], [3], [4], [5], [6], [7]])
    }

    /// A pair arriving while readings still wait keeps the order and the pace.
    func testAPairArrivingWhileReadingsWaitWaitsItsTurn() {
        var pacer = LevelPacer<Int>()
        XCTAssertEqual(pacer.arrive(0), 0)
        XCTAssertNil(pacer.arrive(1))
        XCTAssertNil(pacer.arrive(2), "a new pair comes early, before the tick")
        XCTAssertEqual(pacer.tick(), [1])
        XCTAssertNil(pacer.arrive(3), "the timer runs: it waits for the tick")
        XCTAssertEqual(pacer.tick(), [2])
        XCTAssertEqual(pacer.tick(), [3])
        XCTAssertFalse(pacer.isTicking)
        XCTAssertEqual(pacer.tick(), [], "a late tick shows nothing")
    }

    /// Readings piled up behind a held-up main loop are shown together, all
    /// but the newest, so the picture catches up with the sound.
    func testABacklogIsCaughtUpAtTheNextTick() {
        var pacer = LevelPacer<Int>()
        XCTAssertEqual(pacer.arrive(0), 0)
        for value in 1...6 { XCTAssertNil(pacer.arrive(value)) }
        XCTAssertEqual(pacer.tick(), [1, 2, 3, 4, 5])
        XCTAssertEqual(pacer.waitingCount, 1)
        XCTAssertEqual(pacer.tick(), [6])
    }

    func testResetForgetsWhatWaitsAndShowsTheNextAtOnce() {
        var pacer = LevelPacer<Int>()
        XCTAssertEqual(pacer.arrive(0), 0)
        XCTAssertNil(pacer.arrive(1))
        pacer.reset()
        XCTAssertFalse(pacer.isTicking)
        XCTAssertEqual(pacer.waitingCount, 0)
        XCTAssertEqual(pacer.arrive(9), 9, "a new recording's first reading shows at once")
    }
}
