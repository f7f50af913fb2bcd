import Foundation

/// What a file holds, judged by its bytes, never by its name: an Opus file
/// called `x.wav` is Ogg Opus. For Ogg, also how many streams follow one
/// another ("links": `cat a.ogg b.ogg` makes a chained file of two), read
/// from the page headers alone (no decoding).
public struct AudioContent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case oggOpus, oggVorbis, oggOther, wav, mp3, unknown
    }

    public var kind: Kind
    /// Ogg streams one after another; 1 for anything that is not Ogg.
    public var links: Int = 1

    public init(kind: Kind, links: Int = 1) {
        self.kind = kind
        self.links = links
    }

    /// A chained Ogg file: GStreamer 1.22's oggdemux loses its way at the
    /// join after any seek, and decodebin ends or fails there.
    public var isChained: Bool { links > 1 }

    /// The export format this content already is (nil: none of Hark's).
    public var format: AudioFormat? {
        switch kind {
        case .oggOpus: return .opus
        case .wav: return .wav
        case .mp3: return .mp3
        case .oggVorbis, .oggOther, .unknown: return nil
        }
    }

    /// The format an export of this content to `target` must be converted
    /// to, or nil when it is copied unchanged: the format asked for, else the
    /// one `target`'s extension names, else the content's own. Only content
    /// that already is that format is the original unchanged (a Vorbis file
    /// asked for as `.opus` is converted; an Opus file named `x.wav` exported
    /// as `.wav` is too); nothing asked or named keeps the original.
    public func conversion(asked: AudioFormat?, target: String) -> AudioFormat? {
        guard let wanted = asked ?? AudioFormat(pathExtensionOf: target) else { return nil }
        return wanted == format ? nil : wanted
    }

    /// Reads `path`'s first bytes and, for Ogg, its page headers.
    /// `.unknown` for a file that cannot be read.
    public init(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            self.init(kind: .unknown)
            return
        }
        defer { close(descriptor) }
        self = Self.read { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got > 0 ? Array(bytes[0..<got]) : []
        }
    }

    /// The content of whatever `read(offset, count)` returns (fewer bytes at
    /// the end, none past it): pure, for files and for tests.
    public static func read(_ read: (_ offset: Int, _ count: Int) -> [UInt8]) -> AudioContent {
        let head = read(0, 64)
        if head.count >= 12, head[0..<4].elementsEqual(Array("RIFF".utf8)), head[8..<12].elementsEqual(Array("WAVE".utf8)) {
            return AudioContent(kind: .wav)
        }
        if isMP3(head) { return AudioContent(kind: .mp3) }
        guard let first = OggPage(header: head) else { return AudioContent(kind: .unknown) }
        let body = read(first.headerLength, 8)
        let kind: Kind
        if body.count >= 8, body.elementsEqual(Array("OpusHead".utf8)) {
            kind = .oggOpus
        } else if body.count >= 7, body[0] == 1, body[1..<7].elementsEqual(Array("vorbis".utf8)) {
            kind = .oggVorbis
        } else {
            kind = .oggOther
        }
        return AudioContent(kind: kind, links: oggLinks(read))
    }

    /// Counts the Ogg links: a link begins with its streams' first pages
    /// (BOS), so a BOS page after any other page starts the next one. The
    /// count stops where the pages stop making sense (a file cut short).
    static func oggLinks(_ read: (_ offset: Int, _ count: Int) -> [UInt8]) -> Int {
        var links = 0
        var offset = 0
        var inHeaders = false
        while let page = OggPage(header: read(offset, OggPage.maximumHeaderLength)) {
            if page.isBeginning {
                if !inHeaders { links += 1 }
                inHeaders = true
            } else {
                inHeaders = false
            }
            offset += page.headerLength + page.bodyLength
        }
        return max(links, 1)
    }

    /// An ID3v2 tag, or an MPEG audio Layer III frame header.
    private static func isMP3(_ head: [UInt8]) -> Bool {
        if head.count >= 3, head[0..<3].elementsEqual(Array("ID3".utf8)) { return true }
        guard head.count >= 2, head[0] == 0xFF else { return false }
        return head[1] & 0xE0 == 0xE0 && head[1] & 0x06 == 0x02  // frame sync, layer III
    }
}

/// One Ogg page's header: "OggS", version 0, the header type (0x02: the
/// stream's first page), granule, serial, sequence and CRC, then the
/// segment table, whose lacing values add up to the body's length.
struct OggPage: Equatable {
    static let maximumHeaderLength = 27 + 255

    let isBeginning: Bool
    let headerLength: Int
    let bodyLength: Int

    init?(header bytes: [UInt8]) {
        guard bytes.count >= 27, bytes[0..<4].elementsEqual(Array("OggS".utf8)), bytes[4] == 0 else { return nil }
        let segments = Int(bytes[26])
        guard bytes.count >= 27 + segments else { return nil }
        isBeginning = bytes[5] & 0x02 != 0
        headerLength = 27 + segments
        bodyLength = bytes[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
    }
}
