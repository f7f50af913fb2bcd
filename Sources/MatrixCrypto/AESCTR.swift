import COpenSSL
import Foundation

/// AES-256 in counter mode, fed piece by piece: the same call encrypts and
/// decrypts. OpenSSL counts the whole 16-byte block big-endian.
public final class AES256CTR {
    private let context: OpaquePointer

    public init(key: Data, iv: Data) throws(CryptoError) {
        guard key.count == 32, iv.count == 16 else { throw CryptoError.badKeyLength }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.library("EVP_CIPHER_CTX_new") }
        self.context = context
        let ok = key.withUnsafeBytes { key in
            iv.withUnsafeBytes { iv in
                EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil,
                                   key.bindMemory(to: UInt8.self).baseAddress,
                                   iv.bindMemory(to: UInt8.self).baseAddress) == 1
            }
        }
        guard ok else {
            EVP_CIPHER_CTX_free(context)
            throw CryptoError.library("EVP_EncryptInit_ex")
        }
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// The next piece of the key stream applied to DATA (as many bytes out as in).
    public func update(_ data: Data) throws(CryptoError) -> Data {
        guard !data.isEmpty else { return Data() }
        guard data.count <= Int(Int32.max) else { throw CryptoError.library("EVP_EncryptUpdate") }
        var output = Data(count: data.count)
        var written: Int32 = 0
        let ok = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                EVP_EncryptUpdate(context, out.bindMemory(to: UInt8.self).baseAddress, &written,
                                  input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count)) == 1
            }
        }
        guard ok, Int(written) == data.count else { throw CryptoError.library("EVP_EncryptUpdate") }
        return output
    }

    /// DATA encrypted (or decrypted) in one piece.
    public static func apply(key: Data, iv: Data, to data: Data) throws(CryptoError) -> Data {
        try AES256CTR(key: key, iv: iv).update(data)
    }
}
