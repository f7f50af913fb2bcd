import Foundation
import MatrixCrypto

extension JSONValue {
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The value as JSON text (keys sorted; not canonical JSON, which signing needs).
    public var jsonData: Data { encodeJSON(self) }
}
