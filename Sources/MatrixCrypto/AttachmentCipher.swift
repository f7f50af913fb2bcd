import Foundation

/// Encrypted attachments v2: AES-256-CTR under a new random key, the IV's
/// first 8 bytes random and its counter half zero, and the SHA-256 of the
/// ciphertext. A downloaded file is decrypted in chunks, never whole in memory.
public enum AttachmentCipher {
    static let chunkSize = 64 * 1024

    /// DATA encrypted whole (for small attachments already in memory).
    public static func encrypt(_ data: Data) throws(CryptoError) -> (ciphertext: Data, keys: AttachmentKeys) {
        let encryptor = try AttachmentEncryptor()
        let ciphertext = try encryptor.update(data)
        return (ciphertext, try encryptor.finish())
    }

    /// CIPHERTEXT decrypted, once its hash is the one KEYS names.
    public static func decrypt(_ ciphertext: Data, keys: AttachmentKeys) throws(CryptoError) -> Data {
        guard KeyedHash.constantTimeEqual(try SHA256Digest.hash(ciphertext), keys.sha256) else {
            throw CryptoError.attachmentHashMismatch
        }
        return try AES256CTR.apply(key: keys.key, iv: keys.iv, to: ciphertext)
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

/// One attachment encrypted piece by piece, for a stream that is not a file:
/// a new key and IV (8 random bytes, then a zero counter), the ciphertext's
/// SHA-256 taken as it goes.
public final class AttachmentEncryptor {
    private let key: Data
    private let iv: Data
    private let cipher: AES256CTR
    private let digest: SHA256Digest

    public init() throws(CryptoError) {
        key = try secureRandomBytes(32)
        iv = try secureRandomBytes(8) + Data(count: 8)
        cipher = try AES256CTR(key: key, iv: iv)
        digest = try SHA256Digest()
    }

    /// The next piece of plaintext encrypted.
    public func update(_ plaintext: Data) throws(CryptoError) -> Data {
        let ciphertext = try cipher.update(plaintext)
        try digest.update(ciphertext)
        return ciphertext
    }

    /// The key, IV and hash, once every piece went through; the encryptor is spent.
    public func finish() throws(CryptoError) -> AttachmentKeys {
        AttachmentKeys(key: key, iv: iv, sha256: try digest.finish())
    }
}
