import COpenSSL
import Foundation

/// An Ed25519 private key, kept as its 32-byte seed (RFC 8032): device keys
/// and cross-signing keys. Its description never shows the seed.
public struct Ed25519SigningKey: Sendable, CustomStringConvertible {
    public let seed: Data
    /// The 32-byte public key.
    public let publicKey: Data

    public init(seed: Data) throws(CryptoError) {
        guard seed.count == 32 else { throw CryptoError.badKeyLength }
        self.seed = seed
        let key = try Self.privateKey(seed)
        defer { EVP_PKEY_free(key) }
        var publicKey = Data(count: 32)
        var length = 32
        let ok = publicKey.withUnsafeMutableBytes {
            EVP_PKEY_get_raw_public_key(key, $0.bindMemory(to: UInt8.self).baseAddress, &length) == 1
        }
        guard ok, length == 32 else { throw CryptoError.library("EVP_PKEY_get_raw_public_key") }
        self.publicKey = publicKey
    }

    /// A new key from random bytes.
    public static func generate() throws(CryptoError) -> Ed25519SigningKey {
        try Ed25519SigningKey(seed: secureRandomBytes(32))
    }

    /// The 64-byte signature of MESSAGE.
    public func sign(_ message: Data) throws(CryptoError) -> Data {
        let key = try Self.privateKey(seed)
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.library("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var signature = Data(count: 64)
        var length = 64
        let ok = message.withUnsafeBytes { message in
            signature.withUnsafeMutableBytes { out in
                EVP_DigestSignInit(context, nil, nil, nil, key) == 1
                    && EVP_DigestSign(context, out.bindMemory(to: UInt8.self).baseAddress, &length,
                                      message.bindMemory(to: UInt8.self).baseAddress, message.count) == 1
            }
        }
        guard ok, length == 64 else { throw CryptoError.library("EVP_DigestSign") }
        return signature
    }

    public var description: String { "Ed25519SigningKey(public: \(MatrixBase64.encode(publicKey)))" }

    private static func privateKey(_ seed: Data) throws(CryptoError) -> OpaquePointer {
        let key = seed.withUnsafeBytes {
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
        }
        guard let key else { throw CryptoError.library("EVP_PKEY_new_raw_private_key") }
        return key
    }
}

public enum Ed25519 {
    /// Whether SIGNATURE is PUBLICKEY's over MESSAGE; false for malformed keys or signatures.
    public static func verify(signature: Data, message: Data, publicKey: Data) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        let key = publicKey.withUnsafeBytes {
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
        }
        guard let key else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return message.withUnsafeBytes { message in
            signature.withUnsafeBytes { signature in
                EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
                    && EVP_DigestVerify(context, signature.bindMemory(to: UInt8.self).baseAddress, signature.count,
                                        message.bindMemory(to: UInt8.self).baseAddress, message.count) == 1
            }
        }
    }
}
