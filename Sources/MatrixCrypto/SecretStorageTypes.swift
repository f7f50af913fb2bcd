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

    public init(algorithm: String = SecretStorage.algorithm, name: String? = nil,
                passphrase: PassphraseInfo? = nil, iv: String? = nil, mac: String? = nil) {
        self.algorithm = algorithm
        self.name = name
        self.passphrase = passphrase
        self.iv = iv
        self.mac = mac
    }
}

/// How a passphrase becomes the key: PBKDF2 with SHA-512 (`m.pbkdf2`).
public struct PassphraseInfo: Codable, Sendable, Equatable {
    public var algorithm: String
    /// Used as its UTF-8 bytes, as written (not base64).
    public var salt: String
    public var iterations: Int
    /// The key's length in bits: 256 when absent.
    public var bits: Int?

    public init(algorithm: String = "m.pbkdf2", salt: String, iterations: Int, bits: Int? = nil) {
        self.algorithm = algorithm
        self.salt = salt
        self.iterations = iterations
        self.bits = bits
    }
}

/// One secret encrypted under one key, as stored in the secret's account data
/// (`encrypted.KEYID`): each field base64.
public struct EncryptedSecret: Codable, Sendable, Equatable {
    public var iv: String
    public var ciphertext: String
    public var mac: String

    public init(iv: String, ciphertext: String, mac: String) {
        self.iv = iv
        self.ciphertext = ciphertext
        self.mac = mac
    }
}
