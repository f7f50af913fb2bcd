import CGLib
import Foundation
import GLibSupport
import HarkModel
import Identity
import MessageStore
import Subscriptions

/// The window's player on the session bus as `org.mpris.MediaPlayer2.Hark`
/// (MPRIS 2), for GNOME Shell's media controls and the media keys: one more
/// subscriber of the player, beside the rows. The name is owned without
/// replacing (nor letting another replace) an owner: a second Hark waits in
/// the bus's queue and takes the name over when the first one ends.
@MainActor
final class MediaPlayerService {
    private static let rootInterface = "org.mpris.MediaPlayer2"
    private static let playerInterface = "org.mpris.MediaPlayer2.Player"
    private weak var window: MainWindow?
    private let playback: PlaybackController
    private let store: MessageStore
    private let connection: OpaquePointer
    private var registrations: [guint] = []
    private var owner: guint = 0
    private var subscriptions: [Subscription] = []
    /// The player's properties last announced (PropertiesChanged sends what differs).
    private var announced: [String: MediaPlayerValue] = [:]

    /// Starts serving on the session bus; nil without one.
    init?(window: MainWindow, playback: PlaybackController, store: MessageStore) {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_error_free(error)
            return nil
        }
        self.window = window
        self.playback = playback
        self.store = store
        connection = bus
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, nil) else { return nil }
        defer { g_dbus_node_info_unref(node) }
        let handlers = MediaPlayerHandlers(
            call: { [weak self] interface, method, parameters, invocation in
                self?.call(interface, method, parameters)
                g_dbus_method_invocation_return_value(invocation, nil)
            },
            get: { [weak self] interface, property in
                guard let self else { return nil }
                // Read when asked, never announced (MPRIS: clients follow it from the rate).
                let position = self.playback.currentID == nil ? 0 : self.playback.position
                let value = property == "Position" ? .int64(MediaPlayerInfo.microseconds(position))
                    : self.properties(of: interface)[property]
                return value.map(MediaPlayerVariants.variant)
            },
            set: { [weak self] _, property, value in
                guard property == "Rate", let value else { return }
                self?.playback.setRate(MediaPlayerInfo.snappedRate(g_variant_get_double(value)))
            })
        for name in [Self.rootInterface, Self.playerInterface] {
            let box = HandlerBox(handlers)
            let id = g_dbus_connection_register_object(connection, MediaPlayerInfo.objectPath, g_dbus_node_info_lookup_interface(node, name),
                                                       mediaPlayerVTable, box.retainedPointer(), releaseHandlerBox, nil)
            if id > 0 { registrations.append(id) }
        }
        owner = g_bus_own_name_on_connection(connection, MediaPlayerInfo.busName, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
        announced = properties(of: Self.playerInterface)
        subscriptions = [
            playback.changes.subscribe { [weak self] _ in self?.announceChanges() },
            playback.rateChanges.subscribe { [weak self] _ in self?.announceChanges() },
            playback.seeks.subscribe { [weak self] seconds in self?.announceSeek(to: seconds) },
        ]
        // A rename changes the metadata; a message come or gone, what is next or previous.
        if let history = window.history {
            subscriptions.append(history.messageChanges.subscribe { [weak self] _ in self?.announceChanges() })
        }
    }

    /// Leaves the bus (the window closes).
    func stop() {
        subscriptions.removeAll()
        if owner != 0 { g_bus_unown_name(owner) }
        owner = 0
        registrations.forEach { g_dbus_connection_unregister_object(connection, $0) }
        registrations.removeAll()
    }

    isolated deinit {
        stop()
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    // MARK: What the player says

    private var current: Message? { playback.currentID.flatMap { try? store.message($0) } }

    private func properties(of interface: String) -> [String: MediaPlayerValue] {
        if interface == Self.rootInterface {
            return [
                "CanQuit": .bool(true), "CanRaise": .bool(true), "HasTrackList": .bool(false),
                "Identity": .string(AppInfo.name), "DesktopEntry": .string(AppInfo.id),
                "SupportedUriSchemes": .strings([]), "SupportedMimeTypes": .strings([]),
            ]
        }
        let message = current
        let loaded = message != nil
        let playable = loaded || window?.history?.lastMessage != nil
        return [
            "PlaybackStatus": .string(MediaPlayerInfo.status(loaded: loaded, playing: playback.isPlaying)),
            "Rate": .double(playback.rate),
            "MinimumRate": .double(MediaPlayerInfo.minimumRate), "MaximumRate": .double(MediaPlayerInfo.maximumRate),
            "Volume": .double(1),
            "Metadata": .map(message.map(metadata) ?? ["mpris:trackid": .objectPath(MediaPlayerInfo.noTrack)]),
            "CanGoNext": .bool(message.map { window?.message(.next, from: $0.id) != nil } ?? false),
            "CanGoPrevious": .bool(message.map { window?.message(.previous, from: $0.id) != nil } ?? false),
            "CanPlay": .bool(playable && !playback.isHeldOff), "CanPause": .bool(loaded),
            "CanSeek": .bool(loaded), "CanControl": .bool(true),
        ]
    }

    private func metadata(of message: Message) -> [String: MediaPlayerValue] {
        let room = message.roomID.flatMap { id in (try? store.matrix.room(id)) ?? nil }
        return MediaPlayerInfo.metadata(of: message, sender: store.matrix.senderName(of: message), room: room?.displayName)
    }

    /// Announces what changed once the player's work in hand is done: a
    /// message replacing another is never announced as a stop between them.
    private func announceChanges() {
        guard !announcementDue else { return }
        announcementDue = true
        MainLoop.idle(priority: G_PRIORITY_DEFAULT) { [weak self] in
            self?.announcementDue = false
            self?.announceNow()
            return false
        }
    }
    private var announcementDue = false

    private func announceNow() {
        guard owner != 0 else { return }
        let now = properties(of: Self.playerInterface)
        let changed = now.filter { announced[$0.key] != $0.value }
        announced = now
        guard !changed.isEmpty else { return }
        emit(interface: "org.freedesktop.DBus.Properties", "PropertiesChanged",
             MediaPlayerVariants.propertiesChanged(Self.playerInterface, changed))
    }

    private func announceSeek(to seconds: Double) {
        emit(interface: Self.playerInterface, "Seeked", MediaPlayerVariants.tuple([g_variant_new_int64(gint64(MediaPlayerInfo.microseconds(seconds)))]))
    }

    private func emit(interface: String, _ signal: String, _ parameters: OpaquePointer) {
        g_dbus_connection_emit_signal(connection, nil, MediaPlayerInfo.objectPath, interface, signal, parameters, nil)
    }

    // MARK: What the player is asked

    private func call(_ interface: String, _ method: String, _ parameters: OpaquePointer?) {
        guard let window else { return }
        switch method {
        case "Raise": window.present()
        case "Quit": window.close()
        case "Play":
            if let message = current { if !playback.isPlaying { playback.toggle(message) } } else if let last = window.history?.lastMessage { playback.play(last, in: window.history?.scope) }
        case "Pause": if playback.isPlaying, let message = current { playback.toggle(message) }
        case "PlayPause":
            if let message = current { playback.toggle(message) } else { call(interface, "Play", parameters) }
        case "Stop": playback.stop()
        case "Next": window.play(.next)
        case "Previous": window.play(.previous)
        case "Seek":
            guard let message = current, let offset = MediaPlayerVariants.int64(parameters, 0) else { return }
            let target = playback.position + Double(offset) / 1_000_000
            if target > message.duration { window.play(.next) } else { playback.seek(message.id, to: max(0, target), preview: false) }
        case "SetPosition":
            guard let message = current, let track = MediaPlayerVariants.string(parameters, 0),
                  MediaPlayerInfo.messageID(fromTrackID: track) == message.id,
                  let position = MediaPlayerVariants.int64(parameters, 1) else { return }
            let seconds = Double(position) / 1_000_000
            if seconds >= 0, seconds <= message.duration { playback.seek(message.id, to: seconds, preview: false) }
        default: break  // OpenUri: no URI schemes are supported
        }
    }

    private static let introspection = """
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/>
            <method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/>
            <property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/>
            <property name="Identity" type="s" access="read"/>
            <property name="DesktopEntry" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/>
            <property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/>
            <method name="Previous"/>
            <method name="Pause"/>
            <method name="PlayPause"/>
            <method name="Stop"/>
            <method name="Play"/>
            <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
            <method name="SetPosition">
              <arg direction="in" name="TrackId" type="o"/>
              <arg direction="in" name="Position" type="x"/>
            </method>
            <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
            <signal name="Seeked"><arg name="Position" type="x"/></signal>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="Rate" type="d" access="readwrite"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="Volume" type="d" access="read"/>
            <property name="Position" type="x" access="read"/>
            <property name="MinimumRate" type="d" access="read"/>
            <property name="MaximumRate" type="d" access="read"/>
            <property name="CanGoNext" type="b" access="read"/>
            <property name="CanGoPrevious" type="b" access="read"/>
            <property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/>
            <property name="CanSeek" type="b" access="read"/>
            <property name="CanControl" type="b" access="read"/>
          </interface>
        </node>
        """
}
