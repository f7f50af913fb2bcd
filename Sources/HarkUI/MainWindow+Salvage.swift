import Localization
import MessageStore

/// What the window has said about damaged databases: the salvages and the
/// moves to another database file it announced, and how many of its own
/// damage checks (see recoverInBackground) are running.
struct SalvageAnnouncements {
    var salvages = 0
    var switches = 0
    var checksRunning = 0
}

/// A damaged database, salvaged while the window is open or found by the
/// check that follows its first frame, is announced once, and the history
/// shows what was saved.
extension MainWindow {
    /// A damaged database was salvaged while the window was open: by this
    /// store, when a statement met the damage, or by another process (a
    /// `hark list` beside it), whose new database the store then follows.
    /// The window says so, as it does at start, and shows the salvaged
    /// history; for its own salvage it adopts the audio files no saved row names.
    func announceSalvage() {
        guard let store else { return }
        // A check of the window's own may be salvaging on its thread: that
        // one is announced as the window's (announceCheckedSalvage).
        if salvages.checksRunning == 0 { _ = store.followReplacedDatabase() }
        guard store.databaseSwitches != salvages.switches else { return }
        salvages.switches = store.databaseSwitches
        let ours = store.salvagesSinceOpening != salvages.salvages
        salvages.salvages = store.salvagesSinceOpening
        outsideChanges = store.outsideChangeCounter()  // a new database: a new counter
        history?.apply(.reloaded(showing: nil))
        if ours, let summary = store.latestSalvage?.damageSummary {
            toast(summary, seconds: Self.problemSeconds)
            recoverInBackground()
        } else {
            toast(Self.repairedElsewhere, seconds: Self.problemSeconds)
        }
    }

    /// The window's own damage check, on a connection of its own, found the
    /// database damaged and salvaged it (`found` is what that connection's
    /// opening repaired): the store moves to the salvaged database and the
    /// window says so, as when the check ran before the window opened.
    func announceCheckedSalvage(_ found: RecoveryReport) {
        guard let store, let summary = found.damageSummary else { return }
        _ = store.followReplacedDatabase()
        salvages.switches = store.databaseSwitches
        outsideChanges = store.outsideChangeCounter()
        history?.apply(.reloaded(showing: nil))
        toast(summary, seconds: Self.problemSeconds)
    }

    static var repairedElsewhere: String {
        tr("The message database was found damaged and repaired by another Hark process; "
           + "the history shows what was saved, and the damaged file is kept beside it.")
    }
}
