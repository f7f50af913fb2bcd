import Foundation
import MatrixCrypto
import XCTest

final class PrimitiveTests: XCTestCase {
    // NIST SP 800-38A F.5.5, CTR-AES256.Encrypt (its counter wraps past all ones).
    private let nistKey = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
    private let nistCounter = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    private let nistPlaintext = hex("""
        6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
        30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710
        """)
    private let nistCiphertext = hex("""
        601ec313775789a5b7a7f504bbf3d228 f443e3ca4d62b59aca84e990cacaf5c5
        2b0930daa23de94ce87017ba2d84988d dfc9c58db67aada613c2dd08457941a6
        """)

    func testAESCTRMatchesNIST() throws {
        XCTAssertEqual(try AES256CTR.apply(key: nistKey, iv: nistCounter, to: nistPlaintext), nistCiphertext)
        XCTAssertEqual(try AES256CTR.apply(key: nistKey, iv: nistCounter, to: nistCiphertext), nistPlaintext)
    }

    func testAESCTRInUnevenPiecesIsTheSameStream() throws {
        let cipher = try AES256CTR(key: nistKey, iv: nistCounter)
        var pieces = Data()
        var offset = 0
        for length in [1, 15, 17, 0, 31] {
            pieces += try cipher.update(nistPlaintext.subdata(in: offset..<offset + length))
            offset += length
        }
        XCTAssertEqual(pieces, nistCiphertext)
        XCTAssertThrowsError(try AES256CTR(key: Data(count: 16), iv: nistCounter))
    }

    func testSHA256() throws {
        // FIPS 180-2 appendix B.1.
        XCTAssertEqual(try SHA256Digest.hash(Data("abc".utf8)).hex,
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let digest = try SHA256Digest()
        try digest.update(Data("a".utf8))
        try digest.update(Data("bc".utf8))
        XCTAssertEqual(try digest.finish().hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testHMACSHA256() throws {
        // RFC 4231 test case 2.
        XCTAssertEqual(try KeyedHash.hmacSHA256(key: Data("Jefe".utf8), message: Data("what do ya want for nothing?".utf8)).hex,
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testHKDFSHA256() throws {
        // RFC 5869 test case 1.
        let okm = try KeyedHash.hkdfSHA256(key: Data(repeating: 0x0B, count: 22), salt: hex("000102030405060708090a0b0c"),
                                          info: hex("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        XCTAssertEqual(okm.hex, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    func testPBKDF2SHA512() throws {
        // The PBKDF2-HMAC-SHA512 vector for "password"/"salt", one iteration (as Python's hashlib gives).
        XCTAssertEqual(try KeyedHash.pbkdf2SHA512(password: Data("password".utf8), salt: Data("salt".utf8), iterations: 1, length: 64).hex,
                       "867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce")
    }

    func testRandomBytesDiffer() throws {
        let first = try secureRandomBytes(32)
        XCTAssertEqual(first.count, 32)
        XCTAssertNotEqual(first, try secureRandomBytes(32))
    }
}
