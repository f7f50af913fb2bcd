import GLibSupport

/// Runs `body` as a main-actor task while the GLib loop turns, as the app
/// does (see GLibSupportTests/MainThreadHarness.swift: XCTest methods run
/// synchronously on the main thread), and returns what it returned.
@MainActor @discardableResult
public func awaitOnLoop<T>(seconds: Double = 60, _ body: @escaping @MainActor () async throws -> T) throws -> T {
    MainLoop.bridgeSwiftConcurrency()
    let outcome = Outcome<T>()
    let task = Task { @MainActor in
        do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
    }
    guard MainLoop.iterate(until: { outcome.result != nil }, timeout: seconds) else {
        task.cancel()
        throw StillRunning(seconds: seconds)
    }
    return try outcome.result!.get()
}

@MainActor
private final class Outcome<T> {
    var result: Result<T, Error>?
}

/// `awaitOnLoop`'s body did not finish in time.
public struct StillRunning: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "not done in \(seconds) s" }
}
