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
    /// One playback speed for every message, as in messengers, kept in the
    /// store's settings; the player's own rate never leaks elsewhere.
    private(set) var rate: Double
    static let rateSetting = "playback-speed"
    static let rates = [1.0, 1.5, 2.0]
    /// Called when the speed changes: every row shows it.
    var onRateChange: @MainActor () -> Void = {}
    /// Called when the state changes (plays, pauses, stops, speed): rows
    /// redraw themselves from here.
    var onChange: @MainActor (_ id: String) -> Void = { _ in }
    /// Called with each new position while playing (20 times a second).
    var onPosition: @MainActor (_ id: String) -> Void = { _ in }
    /// The positions this controller remembered in the store, by message:
    /// a row's copy of its message keeps the position it was shown with.
    private var remembered: [String: Double] = [:]
    /// Where the window plays to: a GStreamer sink description, nil for the
    /// sound server. Tests play into `fakesink sync=true`; the CLI's
    /// `HARK_AUDIO_SINK` serves the window too.
    static var audioSink = ProcessInfo.processInfo.environment["HARK_AUDIO_SINK"]
    /// A message did not play: the sentence for its toast.
    var onError: @MainActor (String) -> Void = { _ in }
    /// A message did not play because its audio file is gone.
    var onFileGone: @MainActor (_ id: String) -> Void = { _ in }
    /// The title of the message loaded, for what a failure says.
    private var currentTitle = ""
    /// A message played to its end (for auto-play of the next one).
    var onEnded: @MainActor (_ id: String) -> Void = { _ in }

    init(store: MessageStore) {
        self.store = store
        rate = store.setting(Self.rateSetting).flatMap(Double.init).flatMap { Self.rates.contains($0) ? $0 : nil } ?? 1
        player = Player(audioSink: Self.audioSink) { [weak self] event in self?.handle(event) }
    }

    /// Where `message` stands: the player's position while it is loaded,
    /// else the last one remembered for it (0 once it was played to its end).
    func position(of message: Message) -> Double {
        currentID == message.id ? position : remembered[message.id] ?? message.playPosition
    }

    private func remember(_ id: String, _ seconds: Double) {
        remembered[id] = seconds
        try? store.setPlayPosition(id, seconds)
    }

    /// While a take is recorded nothing starts playing (the speakers would
    /// play into the microphone): Space, Enter, a click or auto-play wait.
    var isHeldOff = false

    /// Plays or pauses `message`; another one playing stops first.
    func toggle(_ message: Message) {
        if currentID == message.id {
            if isHeldOff, !isPlaying { return }
            // Paused at the very end (seeked there): play it again from the start.
            if !isPlaying, position >= message.duration - 0.2 {
                player.seek(to: 0)
                position = 0
            }
            player.togglePlayPause()
            return
        }
        play(message)
    }

    /// Plays `message` from its remembered position (from the start when it
    /// was played to the end).
    func play(_ message: Message) {
        guard !isHeldOff else { return }
        if currentID == message.id {
            if !isPlaying { player.togglePlayPause() }
            return
        }
        stop()
        do throws(AudioError) {
            try player.load(store.audioPath(of: message))
        } catch {
            failed(message.id, title: message.title, error)
            return
        }
        let start = position(of: message)
        currentID = message.id
        currentTitle = message.title
        position = start < message.duration - 0.2 ? start : 0  // played to its end: from the start
        player.setRate(rate)
        if position > 0 { player.seek(to: position) }
        player.play()
    }

    func seek(_ id: String, to seconds: Double, preview: Bool) {
        guard id == currentID else {
            if !preview { remember(id, seconds) }  // for when it plays
            return
        }
        player.seek(to: seconds, mode: preview ? .fast : .exact)
    }

    func setRate(_ newRate: Double) {
        guard newRate != rate else { return }
        rate = newRate
        if currentID != nil { player.setRate(newRate) }
        try? store.setSetting(Self.rateSetting, newRate == 1 ? nil : String(newRate))
        onRateChange()
    }

    /// The next speed in the cycle 1× → 1.5× → 2× → 1×.
    func cycleRate() {
        setRate(Self.rates[((Self.rates.firstIndex(of: rate) ?? 0) + 1) % Self.rates.count])
    }

    func stop() {
        guard let id = currentID else { return }
        remember(id, position)
        player.stop()
        currentID = nil
        isPlaying = false
        onChange(id)
    }

    private func failed(_ id: String, title: String, _ error: AudioError) {
        if PlaybackProblem.meansFileGone(error) { onFileGone(id) }
        onError(PlaybackProblem.sentence(title: title, error: error))
    }

    private func handle(_ event: PlayerEvent) {
        guard let id = currentID else { return }
        switch event {
        case .playing: isPlaying = true
        case .paused:
            isPlaying = false
            remember(id, position)
        case .position(let seconds):
            position = seconds
            onPosition(id)
            return
        case .ended:
            isPlaying = false
            position = 0
            remember(id, 0)
            onChange(id)
            onEnded(id)
            return
        case .failed(let error):
            isPlaying = false
            currentID = nil
            onChange(id)
            failed(id, title: currentTitle, error)
            return
        case .stopped, .duration: break
        }
        onChange(id)
    }
}
