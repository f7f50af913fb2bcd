import Foundation
import AudioEngine
import Levels
import MessageStore
import Subscriptions

/// The app's one player: one message plays at a time; starting another stops
/// the first. The window's rows (and, beside them, any other observer)
/// subscribe to its changes for their play button, ring and playhead; the
/// position is remembered in the store when playback pauses or stops.
@MainActor
public final class PlaybackController {
    private let store: MessageStore
    private var player: Player!
    public private(set) var currentID: String?
    /// The list the message loaded plays from (a room's, the recordings'):
    /// auto-next, Next and Previous go on within it whatever the window
    /// shows meanwhile (another room, a search); nil for a message of no
    /// list (the composer's draft).
    public private(set) var scope: HistoryScope?
    public private(set) var isPlaying = false
    public private(set) var position: Double = 0
    /// One playback speed for every message, as in messengers, kept in the
    /// store's settings; the player's own rate never leaks elsewhere.
    public private(set) var rate: Double
    public static let rateSetting = "playback-speed"
    public static let rates = [1.0, 1.5, 2.0]
    /// The speed changed (to the rate sent): every row shows it.
    public let rateChanges = Observers<Double>()
    /// Skip Silence, for every message, kept in the store's settings: the
    /// long pauses are shortened while playing (the message's own time is
    /// kept: the playhead moves over what is skipped).
    public private(set) var skipsSilence: Bool
    public static let skipSilenceSetting = "skip-silence"
    public let skipSilenceChanges = Observers<Bool>()
    /// What Skip Silence leaves out, by message (and length: a take's grows).
    private var skippings: [String: SilenceSkipping] = [:]
    /// The state of the message sent changed (plays, pauses, stops, ends,
    /// fails): rows redraw themselves from here.
    public let changes = Observers<String>()
    /// A new position of the message sent, while it plays (20 times a second).
    public let positions = Observers<String>()
    /// The positions this controller remembered in the store, by message:
    /// a row's copy of its message keeps the position it was shown with.
    private var remembered: [String: Double] = [:]
    /// Where the window plays to: a GStreamer sink description, nil for the
    /// sound server. Tests play into `fakesink sync=true`; the CLI's
    /// `HARK_AUDIO_SINK` serves the window too.
    public static var audioSink = ProcessInfo.processInfo.environment["HARK_AUDIO_SINK"]
    /// A message did not play: the sentence for its toast.
    public let problems = Observers<String>()
    /// The message sent did not play because its audio file is gone.
    public let filesGone = Observers<String>()
    /// The title of the message loaded, for what a failure says.
    private var currentTitle = ""
    /// The message sent played to its end (for auto-play of the next one).
    public let ends = Observers<String>()
    /// The message playing was sought to the seconds sent (not while dragging).
    public let seeks = Observers<Double>()

    public init(store: MessageStore) {
        self.store = store
        rate = store.setting(Self.rateSetting).flatMap(Double.init).flatMap { Self.rates.contains($0) ? $0 : nil } ?? 1
        skipsSilence = store.setting(Self.skipSilenceSetting) == "on"
        player = Player(audioSink: Self.audioSink) { [weak self] event in self?.handle(event) }
    }

    /// Where `message` stands: the player's position while it is loaded,
    /// else the last one remembered for it (0 once it was played to its end).
    public func position(of message: Message) -> Double {
        currentID == message.id ? position : remembered[message.id] ?? message.playPosition
    }

    private func remember(_ id: String, _ seconds: Double) {
        remembered[id] = seconds
        try? store.setPlayPosition(id, seconds)
    }

    /// While a take is recorded nothing starts playing (the speakers would
    /// play into the microphone): Space, Enter, a click or auto-play wait.
    public var isHeldOff = false

    /// The part of a message that plays (a draft's, between its trim
    /// handles), by message: playing starts inside it and pauses at its end,
    /// back at its start.
    private var bounds: [String: ClosedRange<Double>] = [:]

    /// Plays only `range` of message `id` from now on (nil: all of it).
    public func setBounds(_ id: String, _ range: ClosedRange<Double>?) {
        bounds[id] = range
        guard let range, id == currentID, !range.contains(position) else { return }
        position = range.lowerBound
        player.seek(to: range.lowerBound)
        positions.send(id)
    }

    /// Where playing `message` from `seconds` starts: there, unless past its end (or its bounds').
    private func start(of message: Message, from seconds: Double) -> Double {
        let range = bounds[message.id] ?? 0...message.duration
        return seconds >= range.lowerBound && seconds < range.upperBound - 0.2 ? seconds : range.lowerBound
    }

    /// Plays or pauses `message` (of the list `scope`); another one playing stops first.
    public func toggle(_ message: Message, in scope: HistoryScope? = nil) {
        if currentID == message.id {
            if let scope { self.scope = scope }
            if isHeldOff, !isPlaying { return }
            // Paused at the very end (seeked there), or outside its bounds: play it again from the start.
            if !isPlaying, start(of: message, from: position) != position {
                position = start(of: message, from: position)
                player.seek(to: position)
            }
            player.togglePlayPause()
            return
        }
        play(message, in: scope)
    }

    /// Plays `message` (of the list `scope`) from its remembered position
    /// (from the start when it was played to the end).
    public func play(_ message: Message, in scope: HistoryScope? = nil) {
        guard !isHeldOff else { return }
        if currentID == message.id {
            if let scope { self.scope = scope }
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
        self.scope = scope
        currentTitle = message.title
        position = self.start(of: message, from: start)  // played to its end: from the start
        player.setRate(rate)
        player.skipping = skipsSilence ? skipping(of: message) : nil
        if position > 0 { player.seek(to: position) }
        player.play()
    }

    public enum Order: Sendable { case next, previous }

    /// The message after (or before) `id` in the list the loaded message
    /// plays from, `hidden` left out (what that list does not show); nil at
    /// either end, or with no list.
    public func message(_ order: Order, from id: String, hidden: Set<String> = []) -> Message? {
        guard let scope, let ids = try? store.shownTimes(matching: nil, in: scope).map(\.id).filter({ $0 == id || !hidden.contains($0) }),
              let index = ids.firstIndex(of: id) else { return nil }
        let other = order == .next ? index + 1 : index - 1
        return ids.indices.contains(other) ? try? store.message(ids[other]) : nil
    }

    /// What Skip Silence leaves out of `message`, judged from its stored levels.
    public func skipping(of message: Message) -> SilenceSkipping {
        let key = "\(message.id)/\(message.duration)"
        if let known = skippings[key] { return known }
        let made = SilenceSkipping(levels: (try? store.levels(of: message.id)) ?? LevelTrack(), duration: message.duration)
        skippings[key] = made
        return made
    }

    public func setSkipsSilence(_ on: Bool) {
        guard on != skipsSilence else { return }
        skipsSilence = on
        if let id = currentID, let message = try? store.message(id) {
            player.skipping = on ? skipping(of: message) : nil
        }
        try? store.setSetting(Self.skipSilenceSetting, on ? "on" : nil)
        skipSilenceChanges.send(on)
    }

    public func seek(_ id: String, to seconds: Double, preview: Bool) {
        guard id == currentID else {
            if !preview { remember(id, seconds) }  // for when it plays
            return
        }
        player.seek(to: seconds, mode: preview ? .fast : .exact)
        if !preview { seeks.send(seconds) }
    }

    public func setRate(_ newRate: Double) {
        guard newRate != rate else { return }
        rate = newRate
        if currentID != nil { player.setRate(newRate) }
        try? store.setSetting(Self.rateSetting, newRate == 1 ? nil : String(newRate))
        rateChanges.send(newRate)
    }

    /// The next speed in the cycle 1× → 1.5× → 2× → 1×.
    public func cycleRate() {
        setRate(Self.rates[((Self.rates.firstIndex(of: rate) ?? 0) + 1) % Self.rates.count])
    }

    public func stop() {
        guard let id = currentID else { return }
        remember(id, position)
        player.stop()
        currentID = nil
        scope = nil
        isPlaying = false
        changes.send(id)
    }

    private func failed(_ id: String, title: String, _ error: AudioError) {
        if PlaybackProblem.meansFileGone(error) { filesGone.send(id) }
        problems.send(PlaybackProblem.sentence(title: title, error: error))
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
            if let range = bounds[id], seconds >= range.upperBound, isPlaying {
                // The end of the part that plays: paused, ready at its start again.
                player.pause()
                player.seek(to: range.lowerBound)
                position = range.lowerBound
            }
            positions.send(id)
            return
        case .ended:
            isPlaying = false
            position = 0
            remember(id, 0)
            changes.send(id)
            ends.send(id)
            return
        case .failed(let error):
            isPlaying = false
            currentID = nil
            scope = nil
            changes.send(id)
            failed(id, title: currentTitle, error)
            return
        case .stopped, .duration: break
        }
        changes.send(id)
    }
}
