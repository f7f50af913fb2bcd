import COpenSSL
import Foundation

/// SHA-256 fed piece by piece (an attachment is hashed as it streams).
public final class SHA256Digest {
    private let context: OpaquePointer

    public init() throws(CryptoError) {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.library("EVP_MD_CTX_new") }
        self.context = context
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw CryptoError.library("EVP_DigestInit_ex")
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ data: Data) throws(CryptoError) {
        let ok = data.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) == 1 }
        guard ok else { throw CryptoError.library("EVP_DigestUpdate") }
    }

    /// The 32-byte digest; the object is spent afterwards.
    public func finish() throws(CryptoError) -> Data {
        var digest = Data(count: 32)
        var length: UInt32 = 0
        let ok = digest.withUnsafeMutableBytes {
            EVP_DigestFinal_ex(context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), &length) == 1
        }
        guard ok, length == 32 else { throw CryptoError.library("EVP_DigestFinal_ex") }
        return digest
    }

    public static func hash(_ data: Data) throws(CryptoError) -> Data {
        let digest = try SHA256Digest()
        try digest.update(data)
        return try digest.finish()
    }
}

/// Keyed hashes and key derivations, one call each.
public enum KeyedHash {
    public static func hmacSHA256(key: Data, message: Data) throws(CryptoError) -> Data {
        var mac = Data(count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                mac.withUnsafeMutableBytes { out in
                    HMAC(EVP_sha256(), key.baseAddress, Int32(key.count),
                         message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count,
                         out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        guard result != nil, length == 32 else { throw CryptoError.library("HMAC") }
        return mac
    }

    /// HKDF (RFC 5869, extract then expand) with SHA-256.
    public static func hkdfSHA256(key: Data, salt: Data, info: Data, length: Int) throws(CryptoError) -> Data {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            throw CryptoError.library("EVP_PKEY_CTX_new_id")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var output = Data(count: length)
        var outputLength = length
        let ok = key.withUnsafeBytes { key in
            salt.withUnsafeBytes { salt in
                info.withUnsafeBytes { info in
                    output.withUnsafeMutableBytes { out in
                        EVP_PKEY_derive_init(context) == 1
                            && EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()) == 1
                            && EVP_PKEY_CTX_set1_hkdf_salt(context, salt.bindMemory(to: UInt8.self).baseAddress,
                                                           Int32(salt.count)) == 1
                            && EVP_PKEY_CTX_set1_hkdf_key(context, key.bindMemory(to: UInt8.self).baseAddress,
                                                          Int32(key.count)) == 1
                            && EVP_PKEY_CTX_add1_hkdf_info(context, info.bindMemory(to: UInt8.self).baseAddress,
                                                           Int32(info.count)) == 1
                            && EVP_PKEY_derive(context, out.bindMemory(to: UInt8.self).baseAddress, &outputLength) == 1
                    }
                }
            }
        }
        guard ok, outputLength == length else { throw CryptoError.library("HKDF") }
        return output
    }

    /// PBKDF2 with HMAC-SHA-512, as Secret Storage derives a key from a passphrase.
    public static func pbkdf2SHA512(password: Data, salt: Data, iterations: Int, length: Int) throws(CryptoError) -> Data {
        guard iterations > 0, iterations <= Int(Int32.max) else { throw CryptoError.library("PKCS5_PBKDF2_HMAC") }
        var output = Data(count: length)
        let ok = password.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                output.withUnsafeMutableBytes { out in
                    PKCS5_PBKDF2_HMAC(password.bindMemory(to: CChar.self).baseAddress, Int32(password.count),
                                      salt.bindMemory(to: UInt8.self).baseAddress, Int32(salt.count),
                                      Int32(iterations), EVP_sha512(), Int32(length),
                                      out.bindMemory(to: UInt8.self).baseAddress) == 1
                }
            }
        }
        guard ok else { throw CryptoError.library("PKCS5_PBKDF2_HMAC") }
        return output
    }

    /// Equal bytes, compared in time that does not depend on where they differ.
    public static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in a.count == 0 || CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }
}
