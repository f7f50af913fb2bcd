import Foundation
import GLibSupport
import Localization

// Top-level code runs on the main actor, on the process's main thread: the
// thread GTK and the GLib main loop need. Keep it synchronous: one `await`
// here would make it an async main running inside libdispatch's main-queue
// drain, where the GLib bridge could no longer run any main-actor task.
// The bridge goes in here, once, for every command: no command's loop can
// then be one where a main-actor task silently never runs (rule 4).
MainLoop.bridgeSwiftConcurrency()
Localization.start()
exit(run(requestFromArguments()))
