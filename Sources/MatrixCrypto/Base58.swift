import Foundation

/// Base58 in Bitcoin's alphabet (no 0, O, I or l), as recovery keys are written.
enum Base58 {
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

    static func encode(_ data: Data) -> String {
        // Base-256 digits to base-58 digits, least significant first.
        var digits: [UInt8] = []
        for byte in data {
            var carry = Int(byte)
            for index in digits.indices {
                carry += Int(digits[index]) << 8
                digits[index] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let zeros = data.prefix { $0 == 0 }.count
        return String(repeating: alphabet[0], count: zeros) + String(digits.reversed().map { alphabet[Int($0)] })
    }

    /// The bytes TEXT stands for; throws with the first character not in the alphabet.
    static func decode(_ text: String) throws(CryptoError) -> Data {
        var bytes: [UInt8] = []  // least significant first
        for character in text {
            guard let value = alphabet.firstIndex(of: character) else {
                throw CryptoError.recoveryKeyCharacter(character)
            }
            var carry = value
            for index in bytes.indices {
                carry += Int(bytes[index]) * 58
                bytes[index] = UInt8(carry & 0xFF)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xFF))
                carry >>= 8
            }
        }
        let zeros = text.prefix { $0 == alphabet[0] }.count
        return Data(repeating: 0, count: zeros) + Data(bytes.reversed())
    }
}
