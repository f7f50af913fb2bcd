import Foundation
import MatrixCrypto
import XCTest

final class CanonicalJSONTests: XCTestCase {
    private func canonical(_ json: String) throws -> String {
        try CanonicalJSON.string(JSONValue(parsing: Data(json.utf8)))
    }

    // The examples of the spec's appendix "Canonical JSON".
    func testSpecExamples() throws {
        XCTAssertEqual(try canonical("{}"), "{}")
        XCTAssertEqual(try canonical(#"{"one": 1, "two": "Two"}"#), #"{"one":1,"two":"Two"}"#)
        XCTAssertEqual(try canonical(#"{"b": "2", "a": "1"}"#), #"{"a":"1","b":"2"}"#)
        XCTAssertEqual(try canonical(#"{"b":"2","a":"1"}"#), #"{"a":"1","b":"2"}"#)
        XCTAssertEqual(
            try canonical("""
                {"auth": {"success": true, "mxid": "@john.doe:example.com",
                  "profile": {"display_name": "John Doe",
                    "three_pids": [{"medium": "email", "address": "john.doe@example.org"},
                                   {"medium": "msisdn", "address": "123456789"}]}}}
                """),
            #"{"auth":{"mxid":"@john.doe:example.com","profile":{"display_name":"John Doe","three_pids":"#
                + #"[{"address":"john.doe@example.org","medium":"email"},{"address":"123456789","medium":"msisdn"}]},"#
                + #""success":true}}"#)
        XCTAssertEqual(try canonical(#"{"a": "日本語"}"#), #"{"a":"日本語"}"#)
        XCTAssertEqual(try canonical(#"{"本": 2, "日": 1}"#), #"{"日":1,"本":2}"#)
        XCTAssertEqual(try canonical(#"{"a": "\u65E5"}"#), #"{"a":"日"}"#)
        XCTAssertEqual(try canonical(#"{"a": null}"#), #"{"a":null}"#)
        XCTAssertEqual(try canonical(#"{"a": -0, "b": 1e10}"#), #"{"a":0,"b":10000000000}"#)
    }

    // Expected output from matrix-org's python-canonicaljson 2.0
    // (encode_canonical_json, in the Synapse venv), for the same input.
    func testEscapesOnlyWhatMustBeEscapedInTheShortestForm() throws {
        let value: JSONValue = ["s": .string("\u{00}\u{01}\u{08}\t\n\u{0B}\u{0C}\r\u{1F} \"\\/\u{7F}\u{2028}😀")]
        XCTAssertEqual(try CanonicalJSON.string(value),
                       "{\"s\":\"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f \\\"\\\\/\u{7F}\u{2028}😀\"}")
    }

    // Code point order, not UTF-16 order (which puts 😀 before U+FFFF) nor Swift's
    // String order; python-canonicaljson gives the same.
    func testKeysSortByCodePoint() throws {
        let value: JSONValue = ["😀": 1, "\u{FFFF}": 2, "a": 3, "A": 4, "é": 5]
        XCTAssertEqual(try CanonicalJSON.string(value), "{\"A\":4,\"a\":3,\"é\":5,\"\u{FFFF}\":2,\"😀\":1}")
    }

    func testOutputIsUTF8Bytes() throws {
        XCTAssertEqual(try CanonicalJSON.encode(["a": "é"]), Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0xA9, 0x22, 0x7D]))
    }

    func testIntegersOnlyWithinTheSignableRange() throws {
        XCTAssertEqual(try CanonicalJSON.string([9_007_199_254_740_991, -9_007_199_254_740_991, 0, true, false]),
                       "[9007199254740991,-9007199254740991,0,true,false]")
        XCTAssertThrowsError(try CanonicalJSON.encode(.integer(9_007_199_254_740_992))) {
            XCTAssertEqual($0 as? CryptoError, .notCanonical)
        }
        XCTAssertThrowsError(try canonical(#"{"a": 1.5}"#)) { XCTAssertEqual($0 as? CryptoError, .notCanonical) }
        XCTAssertThrowsError(try canonical("[1e300]")) { XCTAssertEqual($0 as? CryptoError, .notCanonical) }
    }

    func testParsingKeepsKindsApart() throws {
        let value = try JSONValue(parsing: Data(#"{"t": true, "one": 1, "s": "1", "n": null, "a": [false, 0]}"#.utf8))
        XCTAssertEqual(value, ["t": true, "one": 1, "s": "1", "n": nil, "a": [false, 0]])
        XCTAssertEqual(try JSONValue(parsing: JSONEncoder().encode(value)), value, "encodes back to the same JSON")
    }
}
