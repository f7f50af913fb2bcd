import Foundation
import Localization
import MessageStore

/// A value of the media-player interface (MPRIS 2), kept apart from D-Bus:
/// the glue turns each into its GVariant.
public enum MediaPlayerValue: Equatable, Sendable {
    case string(String)
    case strings([String])
    case objectPath(String)
    case int64(Int64)
    case double(Double)
    case bool(Bool)
    indirect case map([String: MediaPlayerValue])
}

/// What the desktop's media controls (MPRIS 2) are told about the one
/// player: the pure part of `org.mpris.MediaPlayer2.Hark` (names, the
/// track id of a message, its metadata, the status, the speeds).
public enum MediaPlayerInfo {
    public static let busName = "org.mpris.MediaPlayer2.Hark"
    public static let objectPath = "/org/mpris/MediaPlayer2"
    /// The track id when nothing is loaded (MPRIS's own).
    public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    static let trackPrefix = "/io/github/hark/Hark/Message/"
    /// Speeds a client may ask for; a request is snapped to the app's own.
    public static let minimumRate = 0.5
    public static let maximumRate = 2.0

    /// A message's track id: an object path, so every byte outside
    /// [A-Za-z0-9] is written `_XX` (its hex), and `_` itself too.
    public static func trackID(of messageID: String) -> String {
        trackPrefix + messageID.utf8.map { byte -> String in
            let character = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (character.isLetter || character.isNumber) ? String(character) : String(format: "_%02X", byte)
        }.joined()
    }

    /// The message a track id names, nil for another player's (or a malformed) id.
    public static func messageID(fromTrackID path: String) -> String? {
        guard path.hasPrefix(trackPrefix) else { return nil }
        var bytes: [UInt8] = []
        var rest = Substring(path.dropFirst(trackPrefix.count)).utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            guard byte == UInt8(ascii: "_") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// MPRIS's PlaybackStatus for the player's state.
    public static func status(loaded: Bool, playing: Bool) -> String {
        !loaded ? "Stopped" : playing ? "Playing" : "Paused"
    }

    public static func microseconds(_ seconds: Double) -> Int64 {
        Int64((max(0, seconds) * 1_000_000).rounded())
    }

    /// The metadata of `message`: who sent it (`sender`, nil for one's own:
    /// "You") and where (`room`, nil for the recordings).
    public static func metadata(of message: Message, sender: String?, room: String?) -> [String: MediaPlayerValue] {
        [
            "mpris:trackid": .objectPath(trackID(of: message.id)),
            "mpris:length": .int64(microseconds(message.duration)),
            "xesam:title": .string(message.title),
            // TRANSLATORS: the sender of one's own message, in the desktop's media controls.
            "xesam:artist": .strings([sender ?? tr("You")]),
            "xesam:album": .string(room ?? tr("Recordings")),
        ]
    }

    /// The app's speed nearest a client's request (within the rates offered).
    @MainActor
    public static func snappedRate(_ requested: Double, among rates: [Double] = PlaybackController.rates) -> Double {
        let clamped = min(maximumRate, max(minimumRate, requested))
        return rates.min { abs($0 - clamped) < abs($1 - clamped) } ?? 1
    }
}
