import Levels

/// What Hark knows of a message it sends as a voice message.
public struct OutgoingVoiceMessage: Sendable, Equatable {
    public var title: String
    /// The file name the receiver sees (`Dentist on Monday.ogg`).
    public var fileName: String
    public var mimeType: String
    public var size: Int
    public var durationMilliseconds: Int
    public var levels: LevelTrack
    /// The words sent with it (its transcript), nil: none.
    public var caption: String?

    public init(title: String, fileName: String, mimeType: String = "audio/ogg",
                size: Int, durationMilliseconds: Int, levels: LevelTrack, caption: String? = nil) {
        self.title = title
        self.fileName = fileName
        self.mimeType = mimeType
        self.size = size
        self.durationMilliseconds = durationMilliseconds
        self.levels = levels
        self.caption = caption
    }
}

/// The `m.room.message` content Element, Element X and Fractal read as a
/// voice message: `m.audio` with the v1 extensible-event fields and the
/// MSC3245 marker (not in the spec yet, but what every client reads).
/// Sent with its words, they are the spec's media caption (v1.10: `body`
/// the words, `filename` the file's name) and the event's text
/// representation, which clients that cannot play it, notifications and
/// searches read; without, `body` is the title and there is no `filename`.
public struct VoiceMessageContent: Encodable, Sendable, Equatable {
    public struct Info: Codable, Sendable, Equatable {
        public var mimetype: String
        public var size: Int
        public var duration: Int
    }

    public struct File: Codable, Sendable, Equatable {
        public var url: String
        public var name: String
        public var mimetype: String
        public var size: Int
    }

    public struct Audio: Codable, Sendable, Equatable {
        public var duration: Int
        public var waveform: [Int]
    }

    public struct Marker: Codable, Sendable, Equatable {}

    public var msgtype = "m.audio"
    public var body: String
    public var filename: String?
    public var url: String
    public var info: Info
    public var text: String
    public var file: File
    public var audio: Audio
    public var voice = Marker()

    enum CodingKeys: String, CodingKey {
        case msgtype, body, filename, url, info
        case text = "org.matrix.msc1767.text"
        case file = "org.matrix.msc1767.file"
        case audio = "org.matrix.msc1767.audio"
        case voice = "org.matrix.msc3245.voice"
    }

    /// The content for `message`, whose audio was uploaded to `contentURI` (mxc://…).
    public init(_ message: OutgoingVoiceMessage, contentURI: String) {
        let caption = message.caption.flatMap { $0.isEmpty ? nil : $0 }
        body = caption ?? message.title
        filename = caption == nil ? nil : message.fileName
        url = contentURI
        info = Info(mimetype: message.mimeType, size: message.size, duration: message.durationMilliseconds)
        text = caption ?? message.title
        file = File(url: contentURI, name: message.fileName, mimetype: message.mimeType, size: message.size)
        audio = Audio(duration: message.durationMilliseconds, waveform: VoiceWaveform.values(from: message.levels))
    }
}
