import Foundation
import MatrixCrypto
import XCTest

final class AttachmentTests: XCTestCase {
    // matrix-rust-sdk's attachment fixture (file_encryption/attachments.rs):
    // 26 bytes of ciphertext and their `file` description; Python's
    // `cryptography` decrypts them to "It's a secret to everybody".
    private let fixtureCiphertext = Data([179, 154, 118, 127, 186, 127, 110, 33, 203, 33, 33, 134, 67, 100, 173, 46,
                                          235, 27, 215, 172, 36, 26, 75, 47, 33, 160])
    private let fixtureJSON = """
        {"url": "mxc://example.org/abc", "v": "v2",
         "key": {"kty": "oct", "alg": "A256CTR", "ext": true,
                 "k": "Voq2nkPme_x8no5-Tjq_laDAdxE6iDbxnlQXxwFPgE4", "key_ops": ["encrypt", "decrypt"]},
         "iv": "i0DovxYdJEcAAAAAAAAAAA",
         "hashes": {"sha256": "ANdt819a8bZl4jKy3Z+jcqtiNICa2y0AW4BBJ/iQRAU"}}
        """

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func fixtureKeys() throws -> AttachmentKeys {
        try AttachmentKeys(JSONDecoder().decode(EncryptedFile.self, from: Data(fixtureJSON.utf8)))
    }

    func testDecryptsTheRustSDKFixture() throws {
        XCTAssertEqual(try AttachmentCipher.decrypt(fixtureCiphertext, keys: fixtureKeys()), Data("It's a secret to everybody".utf8))
        let input = scratch.appendingPathComponent("fixture.bin")
        let output = scratch.appendingPathComponent("fixture.txt")
        try fixtureCiphertext.write(to: input)
        try AttachmentCipher.decryptFile(from: input, to: output, keys: fixtureKeys())
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "It's a secret to everybody")
    }

    func testEncryptingTheFixturePlaintextGivesItsCiphertextAndHash() throws {
        let keys = try fixtureKeys()
        let ciphertext = try AES256CTR.apply(key: keys.key, iv: keys.iv, to: Data("It's a secret to everybody".utf8))
        XCTAssertEqual(ciphertext, fixtureCiphertext)
        XCTAssertEqual(try SHA256Digest.hash(ciphertext), keys.sha256)
    }

    func testPiecesThroughTheEncryptorAreOneStream() throws {
        let encryptor = try AttachmentEncryptor()
        let plaintext = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        let ciphertext = try encryptor.update(plaintext.prefix(333)) + encryptor.update(plaintext.dropFirst(333))
        let keys = try encryptor.finish()
        XCTAssertEqual(try AttachmentCipher.decrypt(ciphertext, keys: keys), plaintext)
    }

    func testAFlippedCiphertextBitIsRefusedAndNothingIsWritten() throws {
        var tampered = fixtureCiphertext
        tampered[5] ^= 0x01
        XCTAssertThrowsError(try AttachmentCipher.decrypt(tampered, keys: fixtureKeys())) {
            XCTAssertEqual($0 as? CryptoError, .attachmentHashMismatch)
            XCTAssertTrue(String(describing: $0).contains("changed after it was sent"))
        }
        let input = scratch.appendingPathComponent("tampered.bin")
        let output = scratch.appendingPathComponent("tampered.txt")
        try tampered.write(to: input)
        XCTAssertThrowsError(try AttachmentCipher.decryptFile(from: input, to: output, keys: fixtureKeys())) {
            XCTAssertEqual($0 as? CryptoError, .attachmentHashMismatch)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    func testTheFileObjectIsV2WithAJSONWebKey() throws {
        let (ciphertext, keys) = try AttachmentCipher.encrypt(Data("voice".utf8))
        XCTAssertEqual(keys.key.count, 32)
        XCTAssertEqual(keys.iv.suffix(8), Data(count: 8), "the counter half of the IV starts at zero")
        XCTAssertEqual(keys.sha256, try SHA256Digest.hash(ciphertext))
        let json = try JSONValue(parsing: JSONEncoder().encode(keys.file(url: "mxc://example.org/xyz")))
        XCTAssertEqual(json, [
            "url": "mxc://example.org/xyz",
            "v": "v2",
            "key": ["kty": "oct", "alg": "A256CTR", "ext": true, "key_ops": ["encrypt", "decrypt"],
                    "k": .string(MatrixBase64.encodeURLSafe(keys.key))],
            "iv": .string(MatrixBase64.encode(keys.iv)),
            "hashes": ["sha256": .string(MatrixBase64.encode(keys.sha256))],
        ])
        XCTAssertFalse(json["iv"]!.stringValue!.hasSuffix("="))
        XCTAssertEqual(try AttachmentKeys(keys.file(url: "mxc://example.org/xyz")), keys)
        XCTAssertNotEqual(try AttachmentCipher.encrypt(Data("voice".utf8)).keys.key, keys.key, "a new key each time")
    }

    func testAFileOfManyChunksRoundTripsThroughFiles() throws {
        // 3.5 chunks of 64 KiB, with a pattern that shows any chunk out of place.
        let plaintext = Data((0..<(64 * 1024 * 7 / 2 + 13)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 16) })
        let encrypted = scratch.appendingPathComponent("voice.enc")
        let decrypted = scratch.appendingPathComponent("voice.out")
        // Encrypted as a send encrypts it (whole), then read back as a download is, chunk by chunk.
        let (ciphertext, keys) = try AttachmentCipher.encrypt(plaintext)
        try ciphertext.write(to: encrypted)
        XCTAssertEqual(ciphertext.count, plaintext.count)
        XCTAssertEqual(try SHA256Digest.hash(ciphertext), keys.sha256)
        XCTAssertEqual(try AttachmentCipher.decrypt(ciphertext, keys: keys), plaintext)
        try AttachmentCipher.decryptFile(from: encrypted, to: decrypted, keys: keys)
        XCTAssertEqual(try Data(contentsOf: decrypted), plaintext)
        let mode = try FileManager.default.attributesOfItem(atPath: decrypted.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testAnUnusableDescriptionIsRefused() throws {
        var file = try JSONDecoder().decode(EncryptedFile.self, from: Data(fixtureJSON.utf8))
        for change in [{ (f: inout EncryptedFile) in f.v = "v1" }, { $0.key.alg = "A128CTR" }, { $0.key.k = "short" },
                       { $0.iv = "i0DovxYdJEc" }, { $0.hashes = [:] }, { $0.key.keyOps = ["encrypt"] }] {
            var changed = file
            change(&changed)
            XCTAssertThrowsError(try AttachmentKeys(changed)) {
                XCTAssertEqual($0 as? CryptoError, .attachmentDescriptionInvalid)
            }
        }
        file.iv += "=="
        XCTAssertNoThrow(try AttachmentKeys(file), "padded base64 is read too")
    }

    func testAMissingFileSaysWhich() throws {
        let missing = scratch.appendingPathComponent("missing.enc")
        XCTAssertThrowsError(try AttachmentCipher.decryptFile(from: missing, to: scratch.appendingPathComponent("out"),
                                                              keys: fixtureKeys())) {
            guard case .cannotRead(let path, _) = $0 as? CryptoError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, missing.path)
        }
    }
}
