import CGLib
import CGtk
import GLibSupport
import HarkModel
import Localization

extension MainWindow {
    static let skipSilenceAction = "skip-silence"

    /// `win.skip-silence`: Skip Silence for every message, a check item in
    /// the main menu and beside the speeds in each row's menu; the rows say
    /// how much it saves while it is on.
    func addSkipSilenceAction(to map: UnsafeMutableRawPointer) {
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
