import Foundation
import Localization
import Matrix
import MatrixCrypto
import MessageStore

/// A voice message into an encrypted room: the audio encrypted here
/// (AES-256-CTR, never through the engine) and uploaded as ciphertext, the
/// event encrypted with the room's Megolm session, and that ciphertext kept
/// in the outbox before it is sent, so a retry sends the same bytes under
/// the same transaction id.
@MainActor
struct EncryptedSend {
    let store: MessageStore
    let client: MatrixClient
    let encryption: RoomEncryption

    enum Failure: Error {
        case matrix(MatrixError)
        case local(String)
    }

    func send(_ entry: OutboxEntry, message: Message, audio: Data, voice: OutgoingVoiceMessage) async throws(Failure) -> String {
        let content: JSONValue
        if let kept = try? store.matrix.encryptedContent(ofSend: entry.transactionID), let value = try? JSONValue(parsing: kept) {
            content = value
        } else {
            content = try await encrypt(entry, audio: audio, voice: voice)
        }
        do {
            return try await client.sendEncrypted(roomID: entry.roomID, transactionID: entry.transactionID, content: content)
        } catch {
            throw .matrix(error)
        }
    }

    private func encrypt(_ entry: OutboxEntry, audio: Data, voice: OutgoingVoiceMessage) async throws(Failure) -> JSONValue {
        let sealed: (ciphertext: Data, keys: AttachmentKeys)
        do { sealed = try AttachmentCipher.encrypt(audio) } catch { throw .local(error.description) }
        let contentURI: String
        do {
            contentURI = try await client.upload(sealed.ciphertext, contentType: "application/octet-stream",
                                                 fileName: voice.fileName)
        } catch {
            throw .matrix(error)
        }
        let plain = Self.voiceContent(voice, file: sealed.keys.file(url: contentURI))
        let members: [String]
        do { members = try await client.currentMembers(roomID: entry.roomID) } catch { throw .matrix(error) }
        let encrypted: JSONValue
        do {
            encrypted = try await encryption.encrypt(roomID: entry.roomID, type: "m.room.message", content: plain,
                                                     members: members)
        } catch let error as MatrixError {
            throw .matrix(error)
        } catch {
            throw .local(tr("The message could not be encrypted: {reason}", ["reason": "\(error)"]))
        }
        try? store.matrix.setEncryptedContent(ofSend: entry.transactionID, encrypted.jsonData)
        return encrypted
    }

    /// The voice message's content as in an unencrypted room, its audio an
    /// encrypted `file` in place of `url` (also inside the extensible-event file).
    static func voiceContent(_ voice: OutgoingVoiceMessage, file: EncryptedFile) -> JSONValue {
        let plain = VoiceMessageContent(voice, contentURI: file.url)
        guard var object = (try? JSONValue(parsing: JSONEncoder().encode(plain)))?.objectValue,
              let fileValue = try? JSONValue(parsing: JSONEncoder().encode(file)) else { return .null }
        object["url"] = nil
        object["file"] = fileValue
        if var extensible = object["org.matrix.msc1767.file"]?.objectValue, let fields = fileValue.objectValue {
            for (key, value) in fields { extensible[key] = value }
            object["org.matrix.msc1767.file"] = .object(extensible)
        }
        return .object(object)
    }
}
