import CGLib
import CGtk
import GLibSupport
import HarkModel
import Localization
import MessageStore

/// What the window adds to the one player: playing the next message by
/// itself, and the named actions for its choices (automatic next, speed,
/// Skip Silence), which the main menu and each row's menu show.
extension MainWindow {
    var autoplay: Bool { store?.setting(Self.autoplaySetting) != "off" }

    func playNext(after id: String) {
        guard autoplay, composer?.isRecording != true, let next = message(.next, from: id) else { return }
        playback?.play(next, in: playback?.scope)
    }

    /// The message that plays after (or before) `id` in the list it plays
    /// from (not the one shown: another room, a search's results), as
    /// auto-next and the media controls' Next and Previous play them; nil
    /// at either end, or where the neighbour's audio is missing.
    func message(_ order: PlaybackController.Order, from id: String) -> Message? {
        let found = playback?.message(order, from: id, hidden: history?.withheld ?? [])
        return found?.state == .missing ? nil : found
    }

    /// Plays the message after (or before) the one loaded: the media keys.
    func play(_ order: PlaybackController.Order) {
        guard composer?.isRecording != true, let id = playback?.currentID, let found = message(order, from: id) else { return }
        playback?.play(found, in: playback?.scope)
    }

    /// `win.autoplay`, `win.playback-speed` and `win.skip-silence`.
    func addPlaybackActions(to map: UnsafeMutableRawPointer) {
        let autoplayAction = g_simple_action_new_stateful("autoplay", nil, g_variant_new_boolean(autoplay ? 1 : 0))!
        Signal.connectPointer(UnsafeMutableRawPointer(autoplayAction), "change-state") { [weak self] value in
            guard let self, let value else { return }
            g_simple_action_set_state(autoplayAction, OpaquePointer(value))
            try? self.store?.setSetting(Self.autoplaySetting, g_variant_get_boolean(OpaquePointer(value)) != 0 ? "on" : "off")
        }
        g_action_map_add_action(OpaquePointer(map), autoplayAction)
        g_object_unref(UnsafeMutableRawPointer(autoplayAction))
        addSpeedAction(to: map)
        addSkipSilenceAction(to: map)
    }

    /// `win.playback-speed`: the one speed for every message, as radio items
    /// in a row's menu (for the keyboard; the row's button cycles it).
    private func addSpeedAction(to map: UnsafeMutableRawPointer) {
        guard let playback else { return }
        let type = g_variant_type_new("s")
        let action = g_simple_action_new_stateful("playback-speed", type, g_variant_new_string(Self.speedTarget(playback.rate)))!
        g_variant_type_free(type)
        Signal.connectPointer(UnsafeMutableRawPointer(action), "change-state") { [weak playback] value in
            guard let value, let text = g_variant_get_string(OpaquePointer(value), nil),
                  let rate = Double(String(cString: text)), PlaybackController.rates.contains(rate) else { return }
            playback?.setRate(rate)
        }
        subscriptions.append(playback.rateChanges.subscribe { rate in
            g_simple_action_set_state(action, g_variant_new_string(Self.speedTarget(rate)))
        })
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// The speed action's target for `rate`: "1", "1.5", "2".
    static func speedTarget(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    static let skipSilenceAction = "skip-silence"

    /// `win.skip-silence`: Skip Silence for every message, a check item in
    /// the main menu and beside the speeds in each row's menu; the rows say
    /// how much it saves while it is on.
    private func addSkipSilenceAction(to map: UnsafeMutableRawPointer) {
        guard let playback else { return }
        let action = g_simple_action_new_stateful(Self.skipSilenceAction, nil, g_variant_new_boolean(playback.skipsSilence ? 1 : 0))!
        Signal.connectPointer(UnsafeMutableRawPointer(action), "change-state") { [weak playback] value in
            guard let value else { return }
            playback?.setSkipsSilence(g_variant_get_boolean(OpaquePointer(value)) != 0)
        }
        subscriptions += [
            playback.skipSilenceChanges.subscribe { on in
                g_simple_action_set_state(action, g_variant_new_boolean(on ? 1 : 0))
            },
            playback.skipSilenceChanges.subscribe { [weak history] _ in history?.apply(.playback(nil)) },
        ]
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }
}
