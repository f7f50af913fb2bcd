import Foundation

/// Encrypted attachments v2: AES-256-CTR under a new random key, the IV's
/// first 8 bytes random and its counter half zero, and the SHA-256 of the
/// ciphertext. Files stream through in chunks, never whole in memory.
public enum AttachmentCipher {
    static let chunkSize = 64 * 1024

    /// A new key and IV for one attachment.
    static func newKeyAndIV() throws(CryptoError) -> (key: Data, iv: Data) {
        (try secureRandomBytes(32), try secureRandomBytes(8) + Data(count: 8))
    }

    /// DATA encrypted whole (for small attachments already in memory).
    public static func encrypt(_ data: Data) throws(CryptoError) -> (ciphertext: Data, keys: AttachmentKeys) {
        let (key, iv) = try newKeyAndIV()
        let ciphertext = try AES256CTR.apply(key: key, iv: iv, to: data)
        return (ciphertext, AttachmentKeys(key: key, iv: iv, sha256: try SHA256Digest.hash(ciphertext)))
    }

    /// CIPHERTEXT decrypted, once its hash is the one KEYS names.
    public static func decrypt(_ ciphertext: Data, keys: AttachmentKeys) throws(CryptoError) -> Data {
        guard KeyedHash.constantTimeEqual(try SHA256Digest.hash(ciphertext), keys.sha256) else {
            throw CryptoError.attachmentHashMismatch
        }
        return try AES256CTR.apply(key: keys.key, iv: keys.iv, to: ciphertext)
    }

    /// The file at INPUT encrypted into OUTPUT (created 0600, replaced if there).
    public static func encryptFile(from input: URL, to output: URL) throws(CryptoError) -> AttachmentKeys {
        let (key, iv) = try newKeyAndIV()
        let cipher = try AES256CTR(key: key, iv: iv)
        let digest = try SHA256Digest()
        try stream(from: input, to: output) { chunk throws(CryptoError) in
            let encrypted = try cipher.update(chunk)
            try digest.update(encrypted)
            return encrypted
        }
        return AttachmentKeys(key: key, iv: iv, sha256: try digest.finish())
    }

    /// The ciphertext at INPUT decrypted into OUTPUT (created 0600), after a first
    /// pass has checked its SHA-256: a mismatch writes nothing and throws.
    public static func decryptFile(from input: URL, to output: URL, keys: AttachmentKeys) throws(CryptoError) {
        let digest = try SHA256Digest()
        let reader = try FileReader(input)
        while let chunk = try reader.next() { try digest.update(chunk) }
        guard KeyedHash.constantTimeEqual(try digest.finish(), keys.sha256) else {
            throw CryptoError.attachmentHashMismatch
        }
        let cipher = try AES256CTR(key: keys.key, iv: keys.iv)
        try stream(from: input, to: output) { chunk throws(CryptoError) in try cipher.update(chunk) }
    }

    /// Each chunk of INPUT through TRANSFORM into OUTPUT; a failure removes OUTPUT.
    private static func stream(from input: URL, to output: URL,
                               transform: (Data) throws(CryptoError) -> Data) throws(CryptoError) {
        let reader = try FileReader(input)
        let writer = try FileWriter(output)
        do throws(CryptoError) {
            while let chunk = try reader.next() { try writer.write(transform(chunk)) }
            try writer.close()
        } catch {
            try? writer.close()
            try? FileManager.default.removeItem(at: output)
            throw error
        }
    }
}
