import Foundation
import GLibSupport

/// Ctrl+C (SIGINT) and SIGTERM handled on the main loop by one handler, as
/// every long command does, until `remove()`.
@MainActor
struct InterruptSignals {
    private let sources: [Source]

    init(_ handler: @escaping SourceHandler) {
        sources = [SIGINT, SIGTERM].map { MainLoop.onUnixSignal($0, handler) }
    }

    func remove() { sources.forEach { $0.remove() } }
}
