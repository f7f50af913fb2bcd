import Foundation

/// Secret Storage with `m.secret_storage.v1.aes-hmac-sha2`: secrets in account
/// data, each encrypted under a key only the user holds (a recovery key or a
/// passphrase). Per secret, HKDF-SHA-256 (32 zero bytes of salt, the secret's
/// name as info) gives an AES-256-CTR key and an HMAC-SHA-256 key; the MAC
/// covers the ciphertext.
public enum SecretStorage {
    public static let algorithm = "m.secret_storage.v1.aes-hmac-sha2"

    /// The key a passphrase stands for under INFO.
    public static func key(passphrase: String, _ info: PassphraseInfo) throws(CryptoError) -> Data {
        guard info.algorithm == "m.pbkdf2" else { throw CryptoError.unsupportedAlgorithm(info.algorithm) }
        let bits = info.bits ?? 256
        guard bits > 0, bits % 8 == 0, info.iterations > 0 else { throw CryptoError.secretMalformed(name: "passphrase") }
        return try KeyedHash.pbkdf2SHA512(password: Data(passphrase.utf8), salt: Data(info.salt.utf8),
                                          iterations: info.iterations, length: bits / 8)
    }

    /// SECRET encrypted under KEY for the secret called NAME, with a new IV.
    public static func encrypt(_ secret: String, name: String, key: Data) throws(CryptoError) -> EncryptedSecret {
        try encrypt(Data(secret.utf8), name: name, key: key, iv: newIV())
    }

    /// PLAINTEXT encrypted under KEY for NAME with a given IV (the key check reuses its IV).
    public static func encrypt(_ plaintext: Data, name: String, key: Data, iv: Data) throws(CryptoError) -> EncryptedSecret {
        let (aesKey, macKey) = try subkeys(key, name: name)
        let ciphertext = try AES256CTR.apply(key: aesKey, iv: iv, to: plaintext)
        let mac = try KeyedHash.hmacSHA256(key: macKey, message: ciphertext)
        return EncryptedSecret(iv: MatrixBase64.encode(iv), ciphertext: MatrixBase64.encode(ciphertext),
                               mac: MatrixBase64.encode(mac))
    }

    /// The secret called NAME, once its MAC shows KEY is the one it was stored under.
    public static func decrypt(_ secret: EncryptedSecret, name: String, key: Data) throws(CryptoError) -> String {
        guard let iv = MatrixBase64.decode(secret.iv), iv.count == 16,
              let ciphertext = MatrixBase64.decode(secret.ciphertext),
              let mac = MatrixBase64.decode(secret.mac)
        else { throw CryptoError.secretMalformed(name: name) }
        let (aesKey, macKey) = try subkeys(key, name: name)
        guard KeyedHash.constantTimeEqual(try KeyedHash.hmacSHA256(key: macKey, message: ciphertext), mac) else {
            throw CryptoError.secretMACMismatch(name: name)
        }
        let plaintext = try AES256CTR.apply(key: aesKey, iv: iv, to: ciphertext)
        guard let text = String(data: plaintext, encoding: .utf8) else { throw CryptoError.secretMalformed(name: name) }
        return text
    }

    /// A description for a new KEY, with its check (32 zero bytes encrypted
    /// under the empty name) so that a wrong key can be told later.
    public static func describe(key: Data, name: String? = nil,
                                passphrase: PassphraseInfo? = nil) throws(CryptoError) -> SecretStorageKeyDescription {
        let sealed = try encrypt(Data(count: 32), name: "", key: key, iv: newIV())
        return SecretStorageKeyDescription(algorithm: algorithm, name: name, passphrase: passphrase,
                                           iv: sealed.iv, mac: sealed.mac)
    }

    /// Throws `wrongRecoveryKey` unless KEY passes DESCRIPTION's check. A
    /// description without a check (made by old clients) lets any key through:
    /// its secrets' MACs tell then.
    public static func check(key: Data, against description: SecretStorageKeyDescription) throws(CryptoError) {
        guard description.algorithm == algorithm else { throw CryptoError.unsupportedAlgorithm(description.algorithm) }
        guard let ivText = description.iv, let macText = description.mac else { return }
        guard let iv = MatrixBase64.decode(ivText), iv.count == 16,
              let mac = MatrixBase64.decode(macText), mac.count == 32
        else {
            throw CryptoError.secretMalformed(name: "m.secret_storage.key")
        }
        let sealed = try encrypt(Data(count: 32), name: "", key: key, iv: iv)
        guard KeyedHash.constantTimeEqual(MatrixBase64.decode(sealed.mac)!, mac) else {
            throw CryptoError.wrongRecoveryKey
        }
    }

    /// The key that what the user typed stands for (a recovery key, or the
    /// passphrase when the key has one), checked against DESCRIPTION.
    public static func unlock(_ typed: String, description: SecretStorageKeyDescription) throws(CryptoError) -> Data {
        let recovered: Data
        do {
            recovered = try RecoveryKey.decode(typed)
        } catch {
            // Not a recovery key: a passphrase, if this key has one, unless it
            // looks like a mistyped recovery key (they all begin "Es").
            guard let info = description.passphrase, !looksLikeRecoveryKey(typed) else { throw error }
            let derived = try key(passphrase: typed, info)
            try check(key: derived, against: description)
            return derived
        }
        try check(key: recovered, against: description)
        return recovered
    }

    private static func looksLikeRecoveryKey(_ typed: String) -> Bool {
        let compact = typed.filter { !$0.isWhitespace }
        return compact.hasPrefix("Es") && compact.count >= 40 && compact.allSatisfy { Base58.alphabet.contains($0) }
    }

    private static func subkeys(_ key: Data, name: String) throws(CryptoError) -> (aes: Data, mac: Data) {
        let keys = try KeyedHash.hkdfSHA256(key: key, salt: Data(count: 32), info: Data(name.utf8), length: 64)
        return (Data(keys.prefix(32)), Data(keys.suffix(32)))
    }

    /// 16 random bytes with bit 63 cleared: some AES-CTR implementations count
    /// only the low 64 bits and would disagree past an overflow.
    private static func newIV() throws(CryptoError) -> Data {
        var iv = try secureRandomBytes(16)
        iv[8] &= 0x7F
        return iv
    }
}
