import Foundation
import AudioEngine
import GLibSupport
import MessageStore

/// The app's one player: one message plays at a time; starting another stops
/// the first. Rows observe it for their play button, ring and playhead; the
/// position is remembered in the store when playback pauses or stops.
@MainActor
final class PlaybackController {
    private let store: MessageStore
    private var player: Player!
    private(set) var currentID: String?
    private(set) var isPlaying = false
    private(set) var position: Double = 0
    /// Positions the player reported, since the window opened.
    private(set) var positionsReceived = 0
    /// Each message's speed for this session (rows are recycled; speeds are not).
    private var rates: [String: Double] = [:]
    /// Called when the state changes (plays, pauses, stops, speed): rows
    /// redraw themselves from here.
    var onChange: @MainActor (_ id: String) -> Void = { _ in }
    /// Called with each new position while playing (30 times a second).
    var onPosition: @MainActor (_ id: String) -> Void = { _ in }
    /// Where the window plays to: a GStreamer sink description, nil for the
    /// sound server. Tests play into `fakesink sync=true`; the CLI's
    /// `HARK_AUDIO_SINK` serves the window too.
    static var audioSink = ProcessInfo.processInfo.environment["HARK_AUDIO_SINK"]
    var onError: @MainActor (String) -> Void = { _ in }
    /// A message played to its end (for auto-play of the next one).
    var onEnded: @MainActor (_ id: String) -> Void = { _ in }

    init(store: MessageStore) {
        self.store = store
        player = Player(audioSink: Self.audioSink) { [weak self] event in self?.handle(event) }
    }

    func rate(of id: String) -> Double { rates[id] ?? 1 }

    /// Plays or pauses `message`; another one playing stops first.
    func toggle(_ message: Message) {
        if currentID == message.id {
            player.togglePlayPause()
            return
        }
        play(message)
    }

    /// Plays `message` from its remembered position (from the start when it
    /// was played to the end).
    func play(_ message: Message) {
        if currentID == message.id {
            if !isPlaying { player.togglePlayPause() }
            return
        }
        stop()
        do {
            try player.load(store.audioPath(of: message))
        } catch {
            onError("\(message.title): \(error)")
            return
        }
        currentID = message.id
        position = message.playPosition
        player.setRate(rate(of: message.id))
        if message.playPosition > 0, message.playPosition < message.duration - 0.2 {
            player.seek(to: message.playPosition)
        }
        player.play()
    }

    func seek(_ id: String, to seconds: Double, preview: Bool) {
        guard id == currentID else {
            if !preview { try? store.setPlayPosition(id, seconds) }  // remembered for when it plays
            return
        }
        player.seek(to: seconds, mode: preview ? .fast : .exact)
    }

    func setRate(_ rate: Double, for id: String) {
        rates[id] = rate
        if id == currentID { player.setRate(rate) }
        onChange(id)
    }

    func stop() {
        guard let id = currentID else { return }
        try? store.setPlayPosition(id, position)
        player.stop()
        currentID = nil
        isPlaying = false
        onChange(id)
    }

    private func handle(_ event: PlayerEvent) {
        guard let id = currentID else { return }
        switch event {
        case .playing: isPlaying = true
        case .paused:
            isPlaying = false
            try? store.setPlayPosition(id, position)
        case .position(let seconds):
            position = seconds
            positionsReceived += 1
            onPosition(id)
            return
        case .ended:
            isPlaying = false
            position = 0
            try? store.setPlayPosition(id, 0)
            onChange(id)
            onEnded(id)
            return
        case .failed(let error):
            isPlaying = false
            currentID = nil
            onError(error.description)
        case .stopped, .duration: break
        }
        onChange(id)
    }
}
