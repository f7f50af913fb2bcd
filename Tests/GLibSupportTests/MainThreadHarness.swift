import GLibSupport
import XCTest

/// GLib-bound tests are synchronous XCTest methods: XCTest runs them on the
/// process's main thread, outside any libdispatch drain, which is exactly
/// where the app runs its GLib loop. (Swift Testing and async XCTest methods
/// run main-actor code from inside a dispatch drain or on another thread, where
/// the GLib bridge cannot drain the main queue.) Each test enters the main actor
/// with `onMainActor`.
func onMainActor(_ body: @MainActor () throws -> Void) rethrows {
    try MainActor.assumeIsolated {
        MainLoop.bridgeSwiftConcurrency()
        try body()
    }
}

/// A Swift object whose lifetime the tests watch through weak references.
final class LifetimeProbe: @unchecked Sendable {}

/// A value that closures on other threads hand back to the main actor.
@MainActor
final class MainActorBox<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
