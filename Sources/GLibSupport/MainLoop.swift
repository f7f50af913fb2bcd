import CGLib
import CHelpers

/// The GLib main loop as Swift's main actor sees it.
///
/// **The one way** `Task { @MainActor in … }` and `await MainActor.run { … }`
/// run in Hark: Swift queues main-actor work on libdispatch's main queue, and
/// `MainLoop.bridgeSwiftConcurrency()` adds a source to GLib's default context
/// that drains that queue whenever it has work (libdispatch signals an eventfd;
/// no polling, no timers). Call it once on the process's main thread before the
/// loop runs — the app does so before `g_application_run`, CLI commands before
/// their loop, tests through their harness. Without it, main-actor tasks never
/// run while GLib owns the thread.
public enum MainLoop {
    /// Installs the libdispatch → GLib bridge; idempotent.
    @MainActor
    public static func bridgeSwiftConcurrency() {
        _ = hark_main_queue_bridge_install()
    }

    /// Runs `body` on the main thread at the next idle moment. Safe to call
    /// from any thread (GStreamer streaming threads, for example).
    public static func post(priority: Int32 = G_PRIORITY_DEFAULT,
                            _ body: @escaping @Sendable @MainActor () -> Void) {
        let box = HandlerBox<SourceHandler> { body(); return false }
        _ = g_idle_add_full(priority, sourceTrampoline, box.retainedPointer(), releaseHandlerBox)
    }

    /// Calls `body` when the loop is idle, again while it returns true.
    @MainActor @discardableResult
    public static func idle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE,
                            _ body: @escaping SourceHandler) -> Source {
        let box = HandlerBox(body)
        return Source(id: g_idle_add_full(priority, sourceTrampoline, box.retainedPointer(), releaseHandlerBox))
    }

    /// Calls `body` every `milliseconds`, for as long as it returns true.
    @MainActor @discardableResult
    public static func timeout(milliseconds: UInt32, priority: Int32 = G_PRIORITY_DEFAULT,
                               _ body: @escaping SourceHandler) -> Source {
        let box = HandlerBox(body)
        return Source(id: g_timeout_add_full(priority, milliseconds, sourceTrampoline,
                                             box.retainedPointer(), releaseHandlerBox))
    }

    /// Calls `body` on the main loop when the process receives `signal`
    /// (SIGINT, SIGTERM, SIGHUP…), for as long as it returns true.
    @MainActor @discardableResult
    public static func onUnixSignal(_ signal: Int32, _ body: @escaping SourceHandler) -> Source {
        let box = HandlerBox(body)
        return Source(id: g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, sourceTrampoline,
                                                 box.retainedPointer(), releaseHandlerBox))
    }

    /// Runs the default context until `quit()`; for CLI commands. Not from
    /// a main-actor task, for the reason given at `iterate`.
    @MainActor
    public static func run() {
        precondition(hark_main_queue_is_draining() == 0, "MainLoop.run inside a main-actor task")
        let loop = g_main_loop_new(nil, 0)!
        runningLoops.append(loop)
        g_main_loop_run(loop)
        g_main_loop_unref(loop)
    }

    /// Makes the innermost `run()` return once the current callback is done.
    @MainActor
    public static func quit() {
        guard let loop = runningLoops.popLast() else { return }
        g_main_loop_quit(loop)
    }

    @MainActor private static var runningLoops: [OpaquePointer] = []

    /// Iterates the default context until `condition` holds or `seconds` pass.
    /// Returns whether the condition held. For CLI commands and tests, which
    /// have no `g_application_run`. Never call it from a `Task` or another
    /// main-actor job the bridge is running: libdispatch does not drain its
    /// main queue re-entrantly, so no other main-actor work could run.
    @MainActor @discardableResult
    public static func iterate(until condition: () -> Bool, timeout seconds: Double) -> Bool {
        precondition(hark_main_queue_is_draining() == 0,
                     "MainLoop.iterate inside a main-actor task would starve every other task")
        // A blocking iteration sleeps until some source fires; this timer makes
        // sure one does by the deadline.
        let expired = Flag()
        let alarm = timeout(milliseconds: UInt32(max(1, seconds * 1000))) {
            expired.isSet = true
            return false
        }
        defer { if !expired.isSet { alarm.remove() } }
        while !condition() {
            if expired.isSet { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }
}

@MainActor
private final class Flag {
    var isSet = false
}

/// Decides whether a source keeps firing: true to continue, false to remove it.
public typealias SourceHandler = @MainActor () -> Bool

/// A GLib source added by `MainLoop`; remove it to stop it early.
public struct Source: Sendable, Hashable {
    public let id: UInt32

    /// Removes the source if it is still attached (its closure is released).
    @MainActor
    public func remove() {
        if let source = g_main_context_find_source_by_id(nil, id), g_source_is_destroyed(source) == 0 {
            g_source_remove(id)
        }
    }
}
