import Foundation
import Levels
@testable import Matrix
import Testing

/// The voice event's content, as Element, Element X and Fractal read it.
@Suite struct VoiceEventTests {
    /// 4 s of levels: a second of silence, a second of loud voice, two quiet.
    static let levels: LevelTrack = {
        var track = LevelTrack()
        for i in 0..<80 {
            let peak: Double = i < 20 ? -100 : i < 40 ? -3 : -30
            track.append(rms: peak - 6, peak: peak)
        }
        return track
    }()

    static let message = OutgoingVoiceMessage(title: "Dentist on Monday", fileName: "Dentist on Monday.ogg",
                                              size: 12_345, durationMilliseconds: 4_000, levels: levels)

    static func json(_ content: VoiceMessageContent) throws -> [String: Any] {
        let data = try JSONEncoder().encode(content)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func contentHasEveryFieldElementReads() throws {
        let object = try Self.json(VoiceMessageContent(Self.message, contentURI: "mxc://localhost/abc"))
        #expect(object["msgtype"] as? String == "m.audio")
        #expect(object["body"] as? String == "Dentist on Monday")
        #expect(object["url"] as? String == "mxc://localhost/abc")
        let info = try #require(object["info"] as? [String: Any])
        #expect(info["mimetype"] as? String == "audio/ogg")
        #expect(info["size"] as? Int == 12_345)
        #expect(info["duration"] as? Int == 4_000)
        #expect(object["org.matrix.msc1767.text"] as? String == "Dentist on Monday")
        let file = try #require(object["org.matrix.msc1767.file"] as? [String: Any])
        #expect(file["url"] as? String == "mxc://localhost/abc")
        #expect(file["name"] as? String == "Dentist on Monday.ogg")
        #expect(file["mimetype"] as? String == "audio/ogg")
        #expect(file["size"] as? Int == 12_345)
        let audio = try #require(object["org.matrix.msc1767.audio"] as? [String: Any])
        #expect(audio["duration"] as? Int == 4_000)
        let waveform = try #require(audio["waveform"] as? [Int])
        #expect(waveform.count == 100)
        let voice = try #require(object["org.matrix.msc3245.voice"] as? [String: Any])
        #expect(voice.isEmpty)
    }

    @Test func waveformFollowsTheLevels() {
        let waveform = VoiceWaveform.values(from: Self.levels)
        #expect(waveform.count == 100)
        #expect(waveform.allSatisfy { (0...1024).contains($0) })
        // Quarter by quarter: silence, loud, quiet, quiet.
        #expect(waveform[0..<25].allSatisfy { $0 == 0 })
        let loud = (1 - 3.0 / 46) * 1024
        #expect(waveform[25..<50].allSatisfy { abs(Double($0) - loud) <= 1 })
        let quiet = (1 - 30.0 / 46) * 1024
        #expect(waveform[50..<100].allSatisfy { abs(Double($0) - quiet) <= 1 })
    }

    @Test func shortMessagesStretchAndEmptyOnesAreFlat() {
        var short = LevelTrack()
        short.append(rms: -10, peak: 0)
        short.append(rms: -100, peak: -100)
        let waveform = VoiceWaveform.values(from: short)
        #expect(waveform.count == 100)
        #expect(waveform[0..<50].allSatisfy { $0 == 1024 })
        #expect(waveform[50...].allSatisfy { $0 == 0 })
        #expect(VoiceWaveform.values(from: LevelTrack()) == [Int](repeating: 0, count: 100))
    }

    @Test func receivedWaveformBecomesLevelsToDraw() {
        let track = VoiceWaveform.levels(from: [0, 512, 1024, 2000, -5], durationMilliseconds: 1_000)
        #expect(track.intervalMilliseconds == 200)
        #expect(track.peak == [-100, -23, 0, 0, -100])
        // And back: Hark's mapping turns it into the same waveform.
        let again = VoiceWaveform.levels(from: VoiceWaveform.values(from: Self.levels), durationMilliseconds: 4_000)
        #expect(VoiceWaveform.values(from: again) == VoiceWaveform.values(from: Self.levels))
    }

    static func decode(_ json: String) throws -> MessageContent {
        try JSONDecoder().decode(MessageContent.self, from: Data(json.utf8))
    }

    @Test func ownContentReadsBackAsAVoiceMessage() throws {
        let data = try JSONEncoder().encode(VoiceMessageContent(Self.message, contentURI: "mxc://localhost/abc"))
        let content = try JSONDecoder().decode(MessageContent.self, from: data)
        #expect(content.isVoice && content.isAudio)
        #expect(content.durationMilliseconds == 4_000)
        #expect(content.waveform == VoiceWaveform.values(from: Self.levels))
        #expect(content.fileName == "Dentist on Monday.ogg")
        #expect(content.info?.size == 12_345)
        #expect(content.levels?.count == 100)
    }

    /// With its words: spec 1.10's caption (`body` the words, `filename`
    /// the name) and the text representation; read back as a caption.
    @Test func wordsSentWithItAreTheCaptionAndTheText() throws {
        var message = Self.message
        message.caption = "The dentist moved to Thursday at ten."
        let object = try Self.json(VoiceMessageContent(message, contentURI: "mxc://localhost/abc"))
        #expect(object["body"] as? String == "The dentist moved to Thursday at ten.")
        #expect(object["filename"] as? String == "Dentist on Monday.ogg")
        #expect(object["org.matrix.msc1767.text"] as? String == "The dentist moved to Thursday at ten.")
        #expect((object["org.matrix.msc1767.file"] as? [String: Any])?["name"] as? String == "Dentist on Monday.ogg")
        #expect(object["org.matrix.msc3245.voice"] != nil)
        let content = try JSONDecoder().decode(MessageContent.self, from: JSONEncoder().encode(
            VoiceMessageContent(message, contentURI: "mxc://localhost/abc")))
        #expect(content.caption == "The dentist moved to Thursday at ten.")
        #expect(content.specFileName == "Dentist on Monday.ogg")
        // Without: as before, no `filename`, and the title is no caption.
        let plain = try Self.json(VoiceMessageContent(Self.message, contentURI: "mxc://localhost/abc"))
        #expect(plain["filename"] == nil)
        let own = try JSONDecoder().decode(MessageContent.self, from: JSONEncoder().encode(
            VoiceMessageContent(Self.message, contentURI: "mxc://localhost/abc")))
        #expect(own.caption == nil, "the extensible file's name beside a title is no caption")
    }

    @Test func onlyABodyBesideADifferentFilenameIsACaption() throws {
        let same = try Self.decode(#"{"msgtype":"m.audio","body":"talk.ogg","filename":"talk.ogg","url":"mxc://s/1"}"#)
        #expect(same.caption == nil)
        let element = try Self.decode("""
            {"msgtype":"m.audio","body":"Voice message","url":"mxc://s/2",
             "org.matrix.msc1767.file":{"name":"Voice message.ogg"},"org.matrix.msc3245.voice":{}}
            """)
        #expect(element.caption == nil)
        let blank = try Self.decode(#"{"msgtype":"m.audio","body":"  ","filename":"talk.ogg","url":"mxc://s/3"}"#)
        #expect(blank.caption == nil)
        let captioned = try Self.decode(#"{"msgtype":"m.audio","body":" Call me back ","filename":"talk.ogg","url":"mxc://s/4"}"#)
        #expect(captioned.caption == "Call me back")
    }

    @Test func legacyVoiceMarkerAndPlainAudio() throws {
        let legacy = try Self.decode("""
            {"msgtype":"m.audio","body":"Voice message","url":"mxc://s/1",
             "org.matrix.msc1767.audio":{"duration":2500,"waveform":[1,2,3]},"org.matrix.msc2516.voice":{}}
            """)
        #expect(legacy.isVoice && legacy.isAudio)
        #expect(legacy.waveform == [1, 2, 3])
        let plain = try Self.decode("""
            {"msgtype":"m.audio","body":"song.mp3","url":"mxc://s/2","info":{"duration":180000,"mimetype":"audio/mpeg"}}
            """)
        #expect(!plain.isVoice && plain.isAudio)
        #expect(plain.durationMilliseconds == 180_000)
        #expect(plain.waveform == nil && plain.levels == nil)
        let text = try Self.decode(#"{"msgtype":"m.text","body":"hello"}"#)
        #expect(!text.isAudio)
        // Junk of the wrong types is read as absent, not as a failure.
        let odd = try Self.decode(#"{"msgtype":"m.audio","url":5,"info":"x","org.matrix.msc1767.audio":[]}"#)
        #expect(!odd.isAudio && odd.durationMilliseconds == nil)
        let clamped = try Self.decode(#"{"msgtype":"m.audio","url":"mxc://s/3","org.matrix.msc1767.audio":{"waveform":[-3,5000]}}"#)
        #expect(clamped.waveform == [0, 1024])
    }
}
