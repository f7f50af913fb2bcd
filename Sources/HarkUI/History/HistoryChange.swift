/// A change for the history to show, as the code that made it describes it.
/// The history takes every one the same way (`HistoryView.apply`): the
/// lists' items read again where they may have changed and spliced only
/// where they did (ListChange), the rows whose message changed shown again,
/// and the list scrolled as the change asks.
enum HistoryChange: Equatable {
    /// Anything may have changed (a recovery, a salvage, an import, a send
    /// into the room shown): then scrolled to `showing`, or to the newest.
    case reloaded(showing: String?)
    /// Another process changed the store (`hark import`, `rename`,
    /// `delete`), or the account's sync did: every row is read again; the
    /// list stays where it was scrolled, or follows the end when it was there.
    case storeChanged
    /// A new message, the newest: at the end, under today's header, scrolled to.
    case added(String)
    /// One message changed (its title, state, transcript or sending): its rows show it again.
    case changed(String)
    /// A message went: the rest stay where they are on screen, and the next
    /// message of its day inherits the day's header.
    case removed(String)
    /// A deleted message came back (an undo): at `place` in the viewport
    /// (its top, in pixels) when it was on screen, else scrolled to.
    case restored(String, place: Double?)
    /// The player changed for `id` (played, paused, stopped): its rows
    /// follow; nil, every row (the speed, which every message shares).
    case playback(String?)
    /// The playing message's position moved: only its rows follow.
    case position(String)

    /// Whether the messages themselves (or which there are) may have
    /// changed, not only how the player shows them.
    var altersMessages: Bool {
        switch self {
        case .playback, .position: false
        default: true
        }
    }
}
