import Foundation

/// A Secret Storage key written for people (spec "Key representation"): the
/// prefix 0x8B 0x01, the 32-byte key and a parity byte (the XOR of all before
/// it), in base58, shown in groups of four. Spaces are ignored when read.
public enum RecoveryKey {
    static let prefix: [UInt8] = [0x8B, 0x01]

    public static func encode(_ key: Data) throws(CryptoError) -> String {
        guard key.count == 32 else { throw CryptoError.badKeyLength }
        var bytes = prefix + Array(key)
        bytes.append(bytes.reduce(0, ^))
        let text = Array(Base58.encode(Data(bytes)))
        return stride(from: 0, to: text.count, by: 4)
            .map { String(text[$0..<min($0 + 4, text.count)]) }
            .joined(separator: " ")
    }

    /// The 32-byte key TEXT stands for, or the reason it is not a recovery key.
    public static func decode(_ text: String) throws(CryptoError) -> Data {
        let compact = String(text.filter { !$0.isWhitespace })
        let bytes = Array(try Base58.decode(compact))
        guard bytes.count == prefix.count + 32 + 1 else { throw CryptoError.recoveryKeyLength }
        guard Array(bytes.prefix(2)) == prefix else { throw CryptoError.recoveryKeyPrefix }
        guard bytes.reduce(0, ^) == 0 else { throw CryptoError.recoveryKeyParity }
        return Data(bytes[2..<34])
    }
}
