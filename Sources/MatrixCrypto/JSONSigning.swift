import Foundation

/// Signing JSON objects (spec appendix "Signing JSON"): the canonical JSON of
/// the object without `signatures` and `unsigned` is what is signed, and each
/// signature lands in `signatures[entity][keyID]` as unpadded base64.
public enum JSONSigning {
    /// The bytes a signature covers.
    public static func signedBytes(of object: [String: JSONValue]) throws(CryptoError) -> Data {
        var stripped = object
        stripped["signatures"] = nil
        stripped["unsigned"] = nil
        return try CanonicalJSON.encode(.object(stripped))
    }

    /// OBJECT with KEY's signature added under ENTITY (a user id or server name) and
    /// KEYID (as `ed25519:DEVICEID`); its other signatures and `unsigned` stay.
    public static func sign(_ object: [String: JSONValue], entity: String, keyID: String,
                            with key: Ed25519SigningKey) throws(CryptoError) -> [String: JSONValue] {
        let signature = try key.sign(signedBytes(of: object))
        var signed = object
        var signatures = object["signatures"]?.objectValue ?? [:]
        var mine = signatures[entity]?.objectValue ?? [:]
        mine[keyID] = .string(MatrixBase64.encode(signature))
        signatures[entity] = .object(mine)
        signed["signatures"] = .object(signatures)
        return signed
    }

    /// Whether OBJECT carries a valid signature by PUBLICKEY under ENTITY and KEYID.
    /// False when the signature is missing, malformed or wrong, or the object
    /// cannot be written canonically.
    public static func verify(_ object: [String: JSONValue], entity: String, keyID: String,
                              publicKey: Data) -> Bool {
        guard let text = object["signatures"]?[entity]?[keyID]?.stringValue,
              let signature = MatrixBase64.decode(text),
              let bytes = try? signedBytes(of: object)
        else { return false }
        return Ed25519.verify(signature: signature, message: bytes, publicKey: publicKey)
    }
}
