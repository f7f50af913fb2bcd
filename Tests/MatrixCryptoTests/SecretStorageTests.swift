import Foundation
import MatrixCrypto
import XCTest

final class SecretStorageTests: XCTestCase {
    // matrix-rust-sdk's secret_storage.rs fixtures: a recovery key and its key
    // description's check, and a passphrase key description and its check.
    private let recoveryKey = "EsTj 3yST y93F SLpB jJsz eAXc 2XzA ygD3 w69H fGaN TKBj jXEd"
    private let recoveryDescription: SecretStorageKeyDescription = decoded("""
        {"algorithm": "m.secret_storage.v1.aes-hmac-sha2",
         "iv": "xv5b6/p3ExEw++wTyfSHEg==", "mac": "ujBBbXahnTAMkmPUX2/0+VTfUh63pGyVRuBcDMgmJC8="}
        """)
    private let passphraseDescription: SecretStorageKeyDescription = decoded("""
        {"algorithm": "m.secret_storage.v1.aes-hmac-sha2",
         "iv": "gH2iNpiETFhApvW6/FFEJQ", "mac": "9Lw12m5SKDipNghdQXKjgpfdj1/K7HFI2brO+UWAGoM",
         "passphrase": {"algorithm": "m.pbkdf2", "salt": "IuLnH7S85YtZmkkBJKwNUKxWF42g9O1H", "iterations": 10}}
        """)

    func testThePublishedKeysPassTheirChecks() throws {
        let key = try SecretStorage.unlock(recoveryKey, description: recoveryDescription)
        // Python: the base58 decoding of the key, bytes 2..<34.
        XCTAssertEqual(key.hex, "8da2453dc22b51355ad77ab75b3e9863af7f4a7bc4af0ce8865b57e2d02196d1")
        let fromPassphrase = try SecretStorage.unlock("It's a secret to everybody", description: passphraseDescription)
        // Python's hashlib.pbkdf2_hmac("sha512", passphrase, salt, 10, 32).
        XCTAssertEqual(fromPassphrase.hex, "397aff44a04238741cff9b76b38126073c34bf25599fa9969287f01ccf77559f")
    }

    func testAWrongKeyOrPassphraseFailsTheCheck() throws {
        let other = try RecoveryKey.encode(secureRandomBytes(32))
        XCTAssertThrowsError(try SecretStorage.unlock(other, description: recoveryDescription)) {
            XCTAssertEqual($0 as? CryptoError, .wrongRecoveryKey)
        }
        XCTAssertThrowsError(try SecretStorage.unlock("It's a secret to nobody", description: passphraseDescription)) {
            XCTAssertEqual($0 as? CryptoError, .wrongRecoveryKey)
        }
        // A mistyped recovery key says so, even where the key has a passphrase.
        XCTAssertThrowsError(try SecretStorage.unlock("EsTj 3yST y93F SLpB jJsz eAXc 2XzA ygD3 w69H fGaN TKBj jXEe",
                                                      description: passphraseDescription)) {
            XCTAssertEqual($0 as? CryptoError, .recoveryKeyParity)
        }
        // Without a passphrase, what is not a recovery key is said to be not one.
        XCTAssertThrowsError(try SecretStorage.unlock("It's a secret to everybody", description: recoveryDescription)) {
            XCTAssertEqual($0 as? CryptoError, .recoveryKeyCharacter("I"))
        }
    }

    func testOtherAlgorithmsAreNamed() throws {
        var description = recoveryDescription
        description.algorithm = "m.secret_storage.custom"
        XCTAssertThrowsError(try SecretStorage.unlock(recoveryKey, description: description)) {
            XCTAssertEqual($0 as? CryptoError, .unsupportedAlgorithm("m.secret_storage.custom"))
        }
        var passphrase = passphraseDescription
        passphrase.passphrase?.algorithm = "m.argon2"
        XCTAssertThrowsError(try SecretStorage.unlock("It's a secret to everybody", description: passphrase)) {
            XCTAssertEqual($0 as? CryptoError, .unsupportedAlgorithm("m.argon2"))
        }
    }

    // Produced with Python's `cryptography` (HKDF-SHA256 with 32 zero bytes of salt
    // and the name as info; AES-256-CTR; HMAC-SHA-256 of the ciphertext), for the
    // key above, the IV 000102…0f and the secret "ICEiIyQl…" (bytes 32..<64, base64).
    func testDecryptsAKnownSecret() throws {
        let key = try RecoveryKey.decode(recoveryKey)
        let sealed: EncryptedSecret = decoded("""
            {"iv": "AAECAwQFBgcICQoLDA0ODw",
             "ciphertext": "BFvuoqktBBWwFXqRanJfsR+PkaiA/+QTvBH9urELZ+n29Wqdfqlwz7xQ8A",
             "mac": "GgTULUXzHA1vRUqvb8ps+MRHMfX8Y9ChMFSxE13AAqk"}
            """)
        XCTAssertEqual(try SecretStorage.decrypt(sealed, name: "m.cross_signing.self_signing", key: key),
                       "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8")
        XCTAssertEqual(try SecretStorage.encrypt(Data("ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8".utf8),
                                                 name: "m.cross_signing.self_signing", key: key,
                                                 iv: hex("000102030405060708090a0b0c0d0e0f")), sealed)
        // Under another name the MAC key differs: refused.
        XCTAssertThrowsError(try SecretStorage.decrypt(sealed, name: "m.cross_signing.master", key: key)) {
            XCTAssertEqual($0 as? CryptoError, .secretMACMismatch(name: "m.cross_signing.master"))
        }
        var tampered = sealed
        var bytes = MatrixBase64.decode(sealed.ciphertext)!
        bytes[0] ^= 0x01
        tampered.ciphertext = MatrixBase64.encode(bytes)
        XCTAssertThrowsError(try SecretStorage.decrypt(tampered, name: "m.cross_signing.self_signing", key: key)) {
            XCTAssertEqual($0 as? CryptoError, .secretMACMismatch(name: "m.cross_signing.self_signing"))
        }
    }

    func testNewSecretsAndKeysRoundTrip() throws {
        let key = try secureRandomBytes(32)
        for _ in 0..<32 {
            let sealed = try SecretStorage.encrypt("a private key", name: "m.cross_signing.user_signing", key: key)
            XCTAssertEqual(MatrixBase64.decode(sealed.iv)![8] & 0x80, 0, "bit 63 of the IV is cleared")
            XCTAssertEqual(try SecretStorage.decrypt(sealed, name: "m.cross_signing.user_signing", key: key), "a private key")
        }
        let info = try PassphraseInfo.new(iterations: 1000)
        XCTAssertEqual(info.salt.count, 32)
        XCTAssertNotEqual(try PassphraseInfo.new().salt, info.salt)
        let derived = try SecretStorage.key(passphrase: "correct horse", info)
        let description = try SecretStorage.describe(key: derived, name: "Hark", passphrase: info)
        XCTAssertEqual(description.algorithm, "m.secret_storage.v1.aes-hmac-sha2")
        XCTAssertEqual(try SecretStorage.unlock("correct horse", description: description), derived)
        XCTAssertThrowsError(try SecretStorage.check(key: key, against: description)) {
            XCTAssertEqual($0 as? CryptoError, .wrongRecoveryKey)
        }
        XCTAssertEqual(try SecretStorage.unlock(RecoveryKey.encode(key), description: SecretStorage.describe(key: key)), key)
    }

    func testADescriptionWithoutACheckLetsTheMACDecide() throws {
        let key = try secureRandomBytes(32)
        XCTAssertNoThrow(try SecretStorage.check(key: key, against: decoded(#"{"algorithm": "m.secret_storage.v1.aes-hmac-sha2"}"#)))
        var broken = recoveryDescription
        broken.mac = MatrixBase64.encode(Data(count: 10))
        XCTAssertThrowsError(try SecretStorage.check(key: key, against: broken)) {
            XCTAssertEqual($0 as? CryptoError, .secretMalformed(name: "m.secret_storage.key"))
        }
    }
}
