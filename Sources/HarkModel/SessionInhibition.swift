import Localization

/// What the session is kept from while Hark works (GtkApplicationInhibitFlags'
/// values): a recording must not be cut by a suspend or a logout; a message
/// playing keeps the screen from going idle.
public struct SessionInhibition: Equatable, Sendable {
    public struct Flags: OptionSet, Equatable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let logout = Flags(rawValue: 1)
        public static let switchUser = Flags(rawValue: 2)
        public static let suspend = Flags(rawValue: 4)
        public static let idle = Flags(rawValue: 8)
    }

    public let flags: Flags
    public let reason: String

    /// What to inhibit while recording or playing; nil when neither.
    public static func needed(recording: Bool, playing: Bool) -> SessionInhibition? {
        if recording {
            // TRANSLATORS: why the session may not suspend or log out now (shown by the desktop).
            return SessionInhibition(flags: [.suspend, .logout], reason: tr("Recording a voice message"))
        }
        if playing {
            // TRANSLATORS: why the session does not go idle now (shown by the desktop).
            return SessionInhibition(flags: [.idle], reason: tr("Playing a voice message"))
        }
        return nil
    }
}
