import GLibSupport

/// Runs a test's body on the main actor: XCTest calls test methods on the
/// process's main thread, where GLib's main loop (and the helper's pipes) live.
func onMainActor(_ body: @MainActor () throws -> Void) rethrows {
    try MainActor.assumeIsolated {
        MainLoop.bridgeSwiftConcurrency()
        try body()
    }
}
