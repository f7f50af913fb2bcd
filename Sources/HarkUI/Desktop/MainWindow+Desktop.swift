import CGtk
import GLibSupport
import HarkModel
import Subscriptions

/// What the window offers the desktop while it runs: the media controls
/// (MPRIS) and the session kept awake while recording or playing.
@MainActor
final class DesktopIntegration {
    let mediaPlayer: MediaPlayerService?
    let inhibitor: SessionInhibitor
    private var subscriptions: [Subscription] = []

    init(window: MainWindow, application: UnsafeMutablePointer<GtkApplication>, playback: PlaybackController, composer: ComposerView) {
        mediaPlayer = window.store.flatMap { MediaPlayerService(window: window, playback: playback, store: $0) }
        inhibitor = SessionInhibitor(application: application, window: window.window)
        let update: @MainActor () -> Void = { [weak composer, weak playback, inhibitor] in
            inhibitor.update(recording: composer?.isRecording == true, playing: playback?.isPlaying == true)
        }
        subscriptions = [composer.stateChanges.subscribe { update() }, playback.changes.subscribe { _ in update() }]
    }

    /// The window is gone: off the bus, and the session free again.
    func stop() {
        subscriptions.removeAll()
        mediaPlayer?.stop()
        inhibitor.release()
    }
}

extension MainWindow {
    func installDesktop(application: UnsafeMutablePointer<GtkApplication>) {
        guard let playback, let composer else { return }
        let desktop = DesktopIntegration(window: self, application: application, playback: playback, composer: composer)
        self.desktop = desktop
        Signal.connect(UnsafeMutableRawPointer(window), "destroy") { [weak desktop] in desktop?.stop() }
    }
}
