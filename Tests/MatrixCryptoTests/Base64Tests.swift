import Foundation
import MatrixCrypto
import XCTest

final class Base64Tests: XCTestCase {
    // RFC 4648 section 10, without the padding Matrix leaves off.
    func testRFC4648VectorsUnpadded() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            XCTAssertEqual(MatrixBase64.encode(Data(plain.utf8)), encoded)
            XCTAssertEqual(MatrixBase64.decode(encoded), Data(plain.utf8))
        }
    }

    func testDecodingAcceptsPaddingAndRefusesNonsense() {
        XCTAssertEqual(MatrixBase64.decode("Zm8="), Data("fo".utf8))
        XCTAssertEqual(MatrixBase64.decode("Zg=="), Data("f".utf8))
        XCTAssertNil(MatrixBase64.decode("Zm9vY"), "one character past a multiple of four")
        XCTAssertNil(MatrixBase64.decode("Zm9v!"))
        XCTAssertNil(MatrixBase64.decode("-_8"), "URL-safe letters in the standard alphabet")
    }

    func testURLSafeUsesDashAndUnderscore() {
        let bytes = Data([0xFB, 0xFF, 0xBF])
        XCTAssertEqual(MatrixBase64.encode(bytes), "+/+/")
        XCTAssertEqual(MatrixBase64.encodeURLSafe(bytes), "-_-_")
        XCTAssertEqual(MatrixBase64.decodeURLSafe("-_-_"), bytes)
        XCTAssertEqual(MatrixBase64.encodeURLSafe(Data([0xFF])), "_w")
        XCTAssertEqual(MatrixBase64.decodeURLSafe("_w"), Data([0xFF]))
        XCTAssertNil(MatrixBase64.decodeURLSafe("+/+/"))
    }
}
