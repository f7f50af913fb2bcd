import Levels
import MatrixCrypto

/// An `m.room.message`'s content as Hark reads it: an audio message (a voice
/// message or a plain `m.audio` file), or something Hark does not show.
public struct MessageContent: Decodable, Sendable, Equatable {
    public var msgtype: String?
    public var body: String?
    public var url: String?
    /// In an encrypted room: the audio's address and the keys to decrypt it (`url` is its address).
    public var encryptedFile: EncryptedFile?
    public var info: Info?
    public var audio: Audio?
    public var fileName: String?
    /// The top-level `filename` alone (spec 1.10): beside a `body` that differs, `body` is a caption.
    public var specFileName: String?
    /// `org.matrix.msc3245.voice`, or the legacy `org.matrix.msc2516.voice`.
    public var isVoice: Bool

    public struct Info: Decodable, Sendable, Equatable {
        public var mimetype: String?
        public var size: Int?
        public var duration: Int?
    }

    public struct Audio: Decodable, Sendable, Equatable {
        public var duration: Int?
        public var waveform: [Int]?
    }

    private struct File: Decodable {
        var name: String?
    }

    enum CodingKeys: String, CodingKey {
        case msgtype, body, url, info, filename
        case encryptedFile = "file"
        case audio = "org.matrix.msc1767.audio"
        case legacyAudio = "org.matrix.msc1767.audio_details"
        case file = "org.matrix.msc1767.file"
        case voice = "org.matrix.msc3245.voice"
        case legacyVoice = "org.matrix.msc2516.voice"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Other clients send all sorts: a field of the wrong type is treated as absent.
        msgtype = try? container.decodeIfPresent(String.self, forKey: .msgtype)
        body = try? container.decodeIfPresent(String.self, forKey: .body)
        url = try? container.decodeIfPresent(String.self, forKey: .url)
        if url == nil, let file = try? container.decodeIfPresent(EncryptedFile.self, forKey: .encryptedFile) {
            encryptedFile = file
            url = file.url
        }
        info = try? container.decodeIfPresent(Info.self, forKey: .info)
        audio = (try? container.decodeIfPresent(Audio.self, forKey: .audio))
            ?? (try? container.decodeIfPresent(Audio.self, forKey: .legacyAudio))
        specFileName = try? container.decodeIfPresent(String.self, forKey: .filename)
        fileName = specFileName ?? (try? container.decodeIfPresent(File.self, forKey: .file))?.name
        isVoice = container.contains(.voice) || container.contains(.legacyVoice)
    }

    /// The words sent with the audio (spec 1.10's media caption: a `body`
    /// beside a `filename` that differs), nil when the body is only a name.
    /// Only the top-level `filename` says so: Hark's and Element's voice
    /// messages name their file in the extensible-event fields alone, beside
    /// a title that is no caption.
    public var caption: String? {
        guard let name = specFileName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
              let words = body?.trimmingCharacters(in: .whitespacesAndNewlines), !words.isEmpty,
              words != name else { return nil }
        return words
    }

    /// Whether Hark takes this message into its history: an `m.audio` with media.
    public var isAudio: Bool { msgtype == "m.audio" && url?.hasPrefix("mxc://") == true }

    /// The length in milliseconds: the audio's own, else the info's.
    public var durationMilliseconds: Int? {
        [audio?.duration, info?.duration].compactMap { $0 }.first { $0 >= 0 }
    }

    /// The sender's waveform (values clamped to 0…1024), or nil when it has none.
    public var waveform: [Int]? {
        guard let values = audio?.waveform, !values.isEmpty else { return nil }
        return values.map { min(VoiceWaveform.maximum, max(0, $0)) }
    }

    /// The sender's waveform as levels to draw until the audio is analysed;
    /// nil when the message has no waveform (draw a flat one).
    public var levels: LevelTrack? {
        guard let waveform else { return nil }
        return VoiceWaveform.levels(from: waveform, durationMilliseconds: durationMilliseconds ?? 0)
    }
}
