/// Everyone observing one kind of event of a model object: each `subscribe`
/// returns a `Subscription`, and its observer hears every event sent until
/// that token is cancelled or released. Observers hear an event in the order
/// they subscribed; one that subscribes or cancels while an event is being
/// sent changes who hears the next one (a cancelled observer hears no more).
///
/// The model owns its `Observers` and is the only one that sends; the
/// window, the rooms and a media-player service each subscribe on their own,
/// none wrapping another's closure.
@MainActor
public final class Observers<Event> {
    private var observers: [(id: Int, hear: @MainActor (Event) -> Void)] = []
    private var nextID = 0

    public init() {}

    /// Starts observing; keep the returned token for as long as `observer`
    /// should hear events.
    public func subscribe(_ observer: @escaping @MainActor (Event) -> Void) -> Subscription {
        let id = nextID
        nextID += 1
        observers.append((id, observer))
        return Subscription { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    /// Tells every observer subscribed (the model's side).
    public func send(_ event: Event) {
        for observer in observers where observers.contains(where: { $0.id == observer.id }) {
            observer.hear(event)
        }
    }
}

extension Observers where Event == Void {
    public func send() { send(()) }
}

/// One observer's hold on an `Observers`: cancelled, or released, it ends
/// the observation.
@MainActor
public final class Subscription {
    private var end: (@MainActor () -> Void)?

    init(end: @escaping @MainActor () -> Void) {
        self.end = end
    }

    public func cancel() {
        let end = self.end
        self.end = nil
        end?()
    }

    isolated deinit {
        cancel()
    }
}
