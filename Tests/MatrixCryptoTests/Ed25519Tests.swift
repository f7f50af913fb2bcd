import Foundation
import MatrixCrypto
import XCTest

final class Ed25519Tests: XCTestCase {
    // RFC 8032 section 7.1, tests 1 to 3: seed, public key, message, signature.
    private let vectors = [
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ]

    func testRFC8032Vectors() throws {
        for (seed, publicKey, message, signature) in vectors {
            let key = try Ed25519SigningKey(seed: hex(seed))
            XCTAssertEqual(key.publicKey.hex, publicKey)
            XCTAssertEqual(try key.sign(hex(message)).hex, signature)
            XCTAssertTrue(Ed25519.verify(signature: hex(signature), message: hex(message), publicKey: hex(publicKey)))
        }
    }

    func testAChangedMessageOrSignatureFails() throws {
        let (_, publicKey, _, signature) = vectors[2]
        XCTAssertFalse(Ed25519.verify(signature: hex(signature), message: hex("af83"), publicKey: hex(publicKey)))
        var flipped = hex(signature)
        flipped[10] ^= 0x01
        XCTAssertFalse(Ed25519.verify(signature: flipped, message: hex("af82"), publicKey: hex(publicKey)))
        XCTAssertFalse(Ed25519.verify(signature: hex(signature).prefix(63), message: hex("af82"), publicKey: hex(publicKey)))
    }

    func testAGeneratedKeySignsAndNeverShowsItsSeed() throws {
        let key = try Ed25519SigningKey.generate()
        let signature = try key.sign(Data("hello".utf8))
        XCTAssertTrue(Ed25519.verify(signature: signature, message: Data("hello".utf8), publicKey: key.publicKey))
        XCTAssertFalse(String(describing: key).contains(MatrixBase64.encode(key.seed)))
        XCTAssertThrowsError(try Ed25519SigningKey(seed: Data(count: 31)))
    }
}
