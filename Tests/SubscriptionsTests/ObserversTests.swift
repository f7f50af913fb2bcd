import Subscriptions
import Testing

/// Several observers of one model's events, each ended by its own token.
@MainActor
struct ObserversTests {
    @Test func everyObserverHearsEachEventInTheOrderTheySubscribed() {
        let observers = Observers<String>()
        var heard: [String] = []
        let window = observers.subscribe { heard.append("window \($0)") }
        let mediaPlayer = observers.subscribe { heard.append("media player \($0)") }
        observers.send("a")
        observers.send("b")
        #expect(heard == ["window a", "media player a", "window b", "media player b"])
        _ = (window, mediaPlayer)
    }

    @Test func aCancelledOrReleasedTokenEndsOnlyItsOwnObservation() {
        let observers = Observers<Int>()
        var first: [Int] = [], second: [Int] = [], third: [Int] = []
        let one = observers.subscribe { first.append($0) }
        var two: Subscription? = observers.subscribe { second.append($0) }
        let three = observers.subscribe { third.append($0) }
        observers.send(1)
        one.cancel()
        observers.send(2)
        two = nil
        observers.send(3)
        #expect(first == [1])
        #expect(second == [1, 2])
        #expect(third == [1, 2, 3])
        one.cancel()  // a second time does nothing
        observers.send(4)
        #expect(third == [1, 2, 3, 4])
        _ = (two, three)
    }

    @Test func anObserverCancelledWhileAnEventIsSentHearsItNoMore() {
        let observers = Observers<Void>()
        var heard: [String] = []
        var later: Subscription?
        let first = observers.subscribe {
            heard.append("first")
            later?.cancel()
        }
        later = observers.subscribe { heard.append("later") }
        observers.send()
        observers.send()
        #expect(heard == ["first", "first"])
        _ = first
    }

    @Test func aTokenOutlivingItsObserversEndsQuietly() {
        var observers: Observers<Int>? = Observers<Int>()
        var heard: [Int] = []
        let token = observers?.subscribe { heard.append($0) }
        observers?.send(1)
        observers = nil
        token?.cancel()
        #expect(heard == [1])
    }
}
