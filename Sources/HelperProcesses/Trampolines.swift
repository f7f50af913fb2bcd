import Glibc

// The C entry points of this module's callbacks, global constants in a
// non-isolated file (see GLibSupport/Trampolines.swift for why).

/// A GSpawnChildSetupFunc, run in the child between fork and exec: the child
/// leads a process group of its own, so the whole of it (an installer and
/// the pip it runs) can be ended at once. Only async-signal-safe calls here.
let ownProcessGroupChildSetup: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
    _ = setpgid(0, 0)
}
