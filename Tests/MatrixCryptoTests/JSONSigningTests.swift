import Foundation
import MatrixCrypto
import XCTest

final class JSONSigningTests: XCTestCase {
    // The spec's appendix "Signing JSON": the key `ed25519:1` whose seed is
    // YJDBA9Xnr2sVqXD9Vj7XVUnmFZcZrlw8Md7kMW+3XA1, signing as "domain".
    // (matrix-org's signedjson 1.1.4 gives the same signatures.)
    private let key = try! Ed25519SigningKey(seed: MatrixBase64.decode("YJDBA9Xnr2sVqXD9Vj7XVUnmFZcZrlw8Md7kMW+3XA1")!)

    func testSpecExamples() throws {
        XCTAssertEqual(MatrixBase64.encode(key.publicKey), "XGX0JRS2Af3be3knz2fBiRbApjm2Dh61gXDJA8kcJNI")
        let empty = try JSONSigning.sign([:], entity: "domain", keyID: "ed25519:1", with: key)
        XCTAssertEqual(empty["signatures"]?["domain"]?["ed25519:1"],
                       "K8280/U9SSy9IVtjBuVeLr+HpOB4BQFWbg+UZaADMtTdGYI7Geitb76LTrr5QV/7Xg4ahLwYGYZzuHGZKM5ZAQ")
        let signed = try JSONSigning.sign(["one": 1, "two": "Two"], entity: "domain", keyID: "ed25519:1", with: key)
        XCTAssertEqual(JSONValue.object(signed), [
            "one": 1, "two": "Two",
            "signatures": ["domain": ["ed25519:1": "KqmLSbO39/Bzb0QIYE82zqLwsA+PDzYIpIRA2sRQ4sL53+sN6/fpNSoqE7BP7vBZhG6kYdD13EIMJpvhJI+6Bw"]],
        ])
        XCTAssertTrue(JSONSigning.verify(signed, entity: "domain", keyID: "ed25519:1", publicKey: key.publicKey))
    }

    func testUnsignedAndOtherSignaturesStayOutOfTheSignature() throws {
        let object: [String: JSONValue] = [
            "one": 1, "two": "Two",
            "unsigned": ["age_ts": 1_000_000],
            "signatures": ["@bob:example.org": ["ed25519:BOB": "c2lnbmF0dXJl"]],
        ]
        let signed = try JSONSigning.sign(object, entity: "domain", keyID: "ed25519:1", with: key)
        XCTAssertEqual(signed["signatures"]?["domain"]?["ed25519:1"],
                       "KqmLSbO39/Bzb0QIYE82zqLwsA+PDzYIpIRA2sRQ4sL53+sN6/fpNSoqE7BP7vBZhG6kYdD13EIMJpvhJI+6Bw")
        XCTAssertEqual(signed["signatures"]?["@bob:example.org"], ["ed25519:BOB": "c2lnbmF0dXJl"])
        XCTAssertEqual(signed["unsigned"], ["age_ts": 1_000_000])
        var aged = signed
        aged["unsigned"] = ["age_ts": 5]
        XCTAssertTrue(JSONSigning.verify(aged, entity: "domain", keyID: "ed25519:1", publicKey: key.publicKey))
    }

    func testATamperedOrMissingSignatureFails() throws {
        let signed = try JSONSigning.sign(["one": 1, "two": "Two"], entity: "domain", keyID: "ed25519:1", with: key)
        var changed = signed
        changed["two"] = "Three"
        XCTAssertFalse(JSONSigning.verify(changed, entity: "domain", keyID: "ed25519:1", publicKey: key.publicKey))
        XCTAssertFalse(JSONSigning.verify(signed, entity: "domain", keyID: "ed25519:2", publicKey: key.publicKey))
        XCTAssertFalse(JSONSigning.verify(signed, entity: "other", keyID: "ed25519:1", publicKey: key.publicKey))
        let stranger = try Ed25519SigningKey.generate()
        XCTAssertFalse(JSONSigning.verify(signed, entity: "domain", keyID: "ed25519:1", publicKey: stranger.publicKey))
    }
}
