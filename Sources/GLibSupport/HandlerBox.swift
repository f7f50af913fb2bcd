/// Carries a Swift closure through a C `gpointer user_data`.
///
/// The box is passed retained (`Unmanaged.passRetained`) and released by the
/// destroy-notify GLib calls when the signal handler or source goes away, so
/// the closure — and whatever it captured — lives exactly as long as the
/// connection. The handler is main-actor isolated; trampolines call it through
/// `MainActor.assumeIsolated`, which traps if a callback ever arrives on
/// another thread.
public final class HandlerBox<Handler: Sendable>: Sendable {
    public let handler: Handler

    public init(_ handler: Handler) {
        self.handler = handler
    }

    /// A +1 reference as `user_data`; balanced by `releaseHandlerBox`.
    public func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// Borrows the box behind `user_data` without changing its retain count.
    public static func borrow(_ data: UnsafeMutableRawPointer?) -> HandlerBox<Handler> {
        Unmanaged<HandlerBox<Handler>>.fromOpaque(data!).takeUnretainedValue()
    }
}

/// The destroy notify for a `HandlerBox` passed with `retainedPointer()`.
/// Other modules' trampolines (GTK draw funcs, for instance) use it too.
public let releaseHandlerBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}
