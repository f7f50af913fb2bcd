import Foundation

/// An encrypted attachment's `file` object (spec "Sending encrypted attachments",
/// v2): where the ciphertext is, its AES-256-CTR key as a JSON Web Key, the
/// initial counter block and the ciphertext's SHA-256.
public struct EncryptedFile: Codable, Sendable, Equatable {
    public var url: String
    public var key: JSONWebKey
    /// The 16-byte initial counter block, unpadded base64.
    public var iv: String
    /// `sha256`: the ciphertext's SHA-256, unpadded base64.
    public var hashes: [String: String]
    public var v: String
}

/// A JSON Web Key (RFC 7517) as attachments carry it.
public struct JSONWebKey: Codable, Sendable, Equatable {
    public var kty: String
    public var alg: String
    public var ext: Bool
    public var keyOps: [String]
    /// The key, URL-safe unpadded base64.
    public var k: String

    enum CodingKeys: String, CodingKey {
        case kty, alg, ext, k
        case keyOps = "key_ops"
    }

    /// The key of a new attachment: an AES-256-CTR key usable both ways.
    public init(aes256CTR key: Data) {
        kty = "oct"
        alg = "A256CTR"
        ext = true
        keyOps = ["encrypt", "decrypt"]
        k = MatrixBase64.encodeURLSafe(key)
    }
}

/// What encrypting an attachment produced, before its upload gives it a URL.
public struct AttachmentKeys: Sendable, Equatable {
    public var key: Data
    public var iv: Data
    public var sha256: Data

    /// The `file` object for the ciphertext uploaded at URL (an `mxc://` URI).
    public func file(url: String) -> EncryptedFile {
        EncryptedFile(url: url, key: JSONWebKey(aes256CTR: key), iv: MatrixBase64.encode(iv),
                      hashes: ["sha256": MatrixBase64.encode(sha256)], v: "v2")
    }

    /// A received `file`'s key, IV and hash, checked for the scheme Hark speaks.
    public init(_ file: EncryptedFile) throws(CryptoError) {
        guard file.v == "v2", file.key.kty == "oct", file.key.alg == "A256CTR",
              file.key.keyOps.contains("decrypt"),
              let key = MatrixBase64.decodeURLSafe(file.key.k), key.count == 32,
              let iv = MatrixBase64.decode(file.iv), iv.count == 16,
              let hash = file.hashes["sha256"].flatMap(MatrixBase64.decode), hash.count == 32
        else { throw CryptoError.attachmentDescriptionInvalid }
        self.init(key: key, iv: iv, sha256: hash)
    }

    public init(key: Data, iv: Data, sha256: Data) {
        self.key = key
        self.iv = iv
        self.sha256 = sha256
    }
}
