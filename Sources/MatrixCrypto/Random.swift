import COpenSSL
import Foundation

/// Bytes from OpenSSL's generator (seeded by the kernel): for keys and IVs.
public func secureRandomBytes(_ count: Int) throws(CryptoError) -> Data {
    var bytes = Data(count: count)
    let ok = bytes.withUnsafeMutableBytes { buffer in
        count == 0 || RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(count)) == 1
    }
    guard ok else { throw CryptoError.library("RAND_bytes") }
    return bytes
}
