import Foundation
import MatrixCrypto
import XCTest

final class RecoveryKeyTests: XCTestCase {
    // The recovery key that matrix-js-sdk, matrix-rust-sdk and trixnity test
    // with, for the 32 bytes of RFC 7748's Alice private key.
    private let published = "EsTc LW2K PGiF wKEA 3As5 g5c4 BXwk qeeJ ZJV8 Q9fu gUMN UE4d"
    private let publishedKey = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")

    func testThePublishedKeyBothWays() throws {
        XCTAssertEqual(try RecoveryKey.encode(publishedKey), published)
        XCTAssertEqual(try RecoveryKey.decode(published), publishedKey)
    }

    func testWhitespaceIsIgnored() throws {
        XCTAssertEqual(try RecoveryKey.decode("EsTcLW2KPGiFwKEA3As5g5c4BXwkqeeJZJV8Q9fugUMNUE4d"), publishedKey)
        XCTAssertEqual(try RecoveryKey.decode(" EsTc LW2K PGiF wKEA 3As5 g5c4\r\n  BXwk qeeJ ZJV8 Q9fu gUMN UE4d  "), publishedKey)
        // matrix-rust-sdk's base58 parsing fixture, spaced at random.
        XCTAssertEqual(try RecoveryKey.decode("EsT           pRvZTnjck8    YrhRAtw XLS84Nr2r9S9LGAWDaExVAPBvLRK   "),
                       Data([159, 189, 70, 187, 52, 81, 113, 198, 246, 2, 44, 154, 37, 213, 104, 27, 165, 78, 236,
                             106, 108, 73, 83, 243, 173, 192, 185, 110, 157, 145, 173, 163]))
    }

    func testEachKindOfWrongKeySaysWhat() {
        func error(_ text: String) -> CryptoError? {
            do { _ = try RecoveryKey.decode(text); return nil } catch { return error }
        }
        XCTAssertEqual(error("EsTc LW2K PGiF wKEA 3As5 g5c4 BXwk qeeJ ZJV8 Q9fu gUMN UE4e"), .recoveryKeyParity)
        XCTAssertEqual(error("EsTpRvZTnjck8YrhRAtwXLS84Nr2r9S9LGAWDaExVAPBvLRk"), .recoveryKeyParity)
        XCTAssertEqual(error("AATpRvZTnjck8YrhRAtwXLS84Nr2r9S9LGAWDaExVAPBvLRk"), .recoveryKeyPrefix)
        XCTAssertEqual(error("EsTc LW2K PGiF wKEA 3As5 g5c4 BXwk qeeJ"), .recoveryKeyLength)
        XCTAssertEqual(error(""), .recoveryKeyLength)
        XCTAssertEqual(error("EsTc LW2K PGiF wKEA 3As5 g5c4 BXwk qeeJ ZJV8 Q9fu gUMN UE40"), .recoveryKeyCharacter("0"))
        XCTAssertTrue(CryptoError.recoveryKeyCharacter("l").description.contains("“l”"))
    }

    func testNewKeysRoundTrip() throws {
        for _ in 0..<20 {
            let key = try secureRandomBytes(32)
            let text = try RecoveryKey.encode(key)
            XCTAssertTrue(text.hasPrefix("Es"))
            XCTAssertEqual(text.split(separator: " ").count, 12)
            XCTAssertEqual(try RecoveryKey.decode(text), key)
        }
        var leadingZeros = Data(count: 32)
        leadingZeros[31] = 1
        XCTAssertEqual(try RecoveryKey.decode(RecoveryKey.encode(leadingZeros)), leadingZeros)
    }
}
