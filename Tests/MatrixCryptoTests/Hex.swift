import Foundation

/// Bytes written as hex in the test vectors.
func hex(_ text: String) -> Data {
    let digits = Array(text.filter { !$0.isWhitespace })
    return Data(stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! })
}

extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// A value decoded from JSON text, as it would arrive from the server.
func decoded<Value: Decodable>(_ json: String, as type: Value.Type = Value.self) -> Value {
    try! JSONDecoder().decode(Value.self, from: Data(json.utf8))
}
