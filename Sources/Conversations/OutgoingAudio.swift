import AudioEngine
import Foundation
import Localization

/// What a message's audio goes out as: Ogg Opus, the format every Matrix
/// client records voice messages in and plays. A file that already is one
/// goes unchanged; anything else (an imported WAV, an MP3) is converted off
/// the main thread, into a scratch file read and removed at once: the
/// message keeps its own file.
enum OutgoingAudio {
    static let mimeType = "audio/ogg"
    static let fileExtension = "ogg"

    enum Failure: Error {
        case cancelled
        case unusable(String)
    }

    static func data(of path: String) async throws(Failure) -> Data {
        let content = AudioContent(path: path)
        // A chained file is converted too: players stop at its first link.
        if content.kind == .oggOpus, !content.isChained {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unusable(tr("The message's audio file is missing."))
            }
            return data
        }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("hark-send-\(UUID().uuidString).\(fileExtension)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            try await Transcoder.transcode(path, to: scratch, format: .opus)
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .unusable(tr("The message's audio could not be converted to Ogg Opus for sending: {reason}",
                               ["reason": error.description]))
        }
        guard let data = FileManager.default.contents(atPath: scratch) else {
            throw .unusable(tr("The message's audio file is missing."))
        }
        return data
    }
}
