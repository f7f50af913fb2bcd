import Foundation

/// A Secret Storage key's description, the content of the account data
/// `m.secret_storage.key.KEYID`: its algorithm, how a passphrase turns into it,
/// and the check (`iv`, `mac`) that tells whether a key is this one.
public struct SecretStorageKeyDescription: Codable, Sendable, Equatable {
    public var algorithm: String
    public var name: String?
    public var passphrase: PassphraseInfo?
    public var iv: String?
    public var mac: String?
}

/// How a passphrase becomes the key: PBKDF2 with SHA-512 (`m.pbkdf2`).
public struct PassphraseInfo: Codable, Sendable, Equatable {
    public var algorithm: String
    /// Used as its UTF-8 bytes, as written (not base64).
    public var salt: String
    public var iterations: Int
    /// The key's length in bits: 256 when absent.
    public var bits: Int?

    /// A new passphrase's parameters: a random salt of 32 letters and digits.
    public static func new(iterations: Int = 500_000) throws(CryptoError) -> PassphraseInfo {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        // 248 is the largest multiple of 62 in a byte: no letter more likely than another.
        var salt = ""
        while salt.count < 32 {
            for byte in try secureRandomBytes(32) where byte < 248 && salt.count < 32 {
                salt.append(letters[Int(byte) % letters.count])
            }
        }
        return PassphraseInfo(algorithm: "m.pbkdf2", salt: salt, iterations: iterations, bits: 256)
    }
}

/// One secret encrypted under one key, as stored in the secret's account data
/// (`encrypted.KEYID`): each field base64.
public struct EncryptedSecret: Codable, Sendable, Equatable {
    public var iv: String
    public var ciphertext: String
    public var mac: String
}
