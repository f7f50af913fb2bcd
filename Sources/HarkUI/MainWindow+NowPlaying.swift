import CGtk
import HarkModel

/// The strip of what plays, under the header bar (see NowPlayingStrip), and
/// where its title goes: the message's own list (its room, the recordings;
/// out of a search) with the keyboard on its row.
extension MainWindow {
    func installNowPlaying() {
        guard let playback, let store, let history else { return }
        let strip = NowPlayingStrip(playback: playback, store: store, messageChanges: history.messageChanges)
        nowPlaying = strip
        gtk_box_insert_child_after(hark_box(layout.content), strip.widget, layout.contentHeader)
        strip.onGo = { [weak self] in self?.goToPlaying() }
        strip.onHeightChange = { [weak history] in history?.keepRowsInPlace(topMovedBy: $0) }
    }

    /// Shows the message loaded in its list and focuses its row.
    func goToPlaying() {
        guard let playback, let id = playback.currentID, let history else { return }
        search.close()
        if let scope = playback.scope, scope != history.scope {
            if let conversations { conversations.show(scope) } else { history.scope = scope }
        }
        conversations?.layout.showContent()
        history.focusMessage(id)
    }
}
