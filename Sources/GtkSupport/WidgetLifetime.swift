import CGLib
import CGtk
import GLibSupport

/// Main-loop sources that live no longer than a widget.
///
/// GTK destroys a widget when its window goes (a close, Ctrl+Q), while a
/// Swift object that drew into it may live on; an idle or timeout queued a
/// moment before, holding only `[weak self]`, would then reach the widget's
/// freed memory. Sources added here are removed when the widget emits
/// "destroy", and never run after it.
@MainActor
public final class WidgetLifetime {
    /// False from the widget's "destroy" on: its pointer must not be used.
    public private(set) var isAlive = true
    private var pending: [UInt32: Source] = [:]

    public init(of widget: UnsafeMutablePointer<GtkWidget>) {
        Signal.connect(UnsafeMutableRawPointer(widget), "destroy") { [weak self] in self?.end() }
    }

    /// `MainLoop.idle`, while the widget lives.
    @discardableResult
    public func idle(priority: Int32 = G_PRIORITY_DEFAULT_IDLE, _ body: @escaping SourceHandler) -> Source? {
        add(body) { MainLoop.idle(priority: priority, $0) }
    }

    /// `MainLoop.timeout`, while the widget lives.
    @discardableResult
    public func timeout(milliseconds: UInt32, _ body: @escaping SourceHandler) -> Source? {
        add(body) { MainLoop.timeout(milliseconds: milliseconds, $0) }
    }

    private func add(_ body: @escaping SourceHandler, _ schedule: (@escaping SourceHandler) -> Source) -> Source? {
        guard isAlive else { return nil }
        let id = SourceID()
        let source = schedule { [weak self] in
            guard let self, self.isAlive else { return false }
            let again = body()
            if !again, let value = id.value { self.pending[value] = nil }
            return again
        }
        id.value = source.id
        pending[source.id] = source
        return source
    }

    private func end() {
        isAlive = false
        let sources = pending.values
        pending = [:]
        sources.forEach { $0.remove() }
    }
}

/// A source's id, known only once it is added, for its own handler.
@MainActor
private final class SourceID {
    var value: UInt32?
}
