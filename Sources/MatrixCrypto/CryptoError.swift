import Foundation
import Localization

/// What went wrong encrypting or decrypting, each with a sentence for the user.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An OpenSSL call failed (it names the call): a fault of this computer, not of the data.
    case library(String)
    /// A key or IV of the wrong length was given to a cipher (a programming error).
    case badKeyLength
    /// The downloaded attachment's SHA-256 is not the one its event names: it was not decrypted.
    case attachmentHashMismatch
    /// The event's `file` lacks a usable key, IV or hash, or names another scheme.
    case attachmentDescriptionInvalid
    /// A file could not be read.
    case cannotRead(path: String, reason: String)
    /// A file could not be written.
    case cannotWrite(path: String, reason: String)
    /// A character that base58 does not have, as the user typed it.
    case recoveryKeyCharacter(Character)
    /// The recovery key decodes to too few or too many bytes.
    case recoveryKeyLength
    /// The recovery key's first two bytes are not 0x8B 0x01.
    case recoveryKeyPrefix
    /// The recovery key's parity byte does not match: a character is mistyped.
    case recoveryKeyParity
    /// The key or passphrase fails the storage key's check (its `iv`/`mac`).
    case wrongRecoveryKey
    /// A secret's MAC does not match: another key, or the secret was changed.
    case secretMACMismatch(name: String)
    /// A secret, or a storage key's description, is not in a form this code reads.
    case secretMalformed(name: String)
    /// Secret Storage or its passphrase uses an algorithm Hark does not implement.
    case unsupportedAlgorithm(String)
    /// The JSON holds a number canonical JSON cannot write (a fraction, or past ±(2^53 − 1)).
    case notCanonical

    public var description: String {
        switch self {
        case .library(let call):
            return tr("The encryption library failed ({call}).", ["call": call])
        case .badKeyLength:
            return tr("The encryption library failed ({call}).", ["call": "key length"])
        case .attachmentHashMismatch:
            return tr("This attachment was changed after it was sent: its checksum does not match, so Hark did not open it.")
        case .attachmentDescriptionInvalid:
            return tr("This attachment cannot be decrypted: its encryption details are missing or not valid.")
        case .cannotRead(let path, let reason):
            return tr("Cannot read {path}: {reason}.", ["path": path, "reason": reason])
        case .cannotWrite(let path, let reason):
            return tr("Cannot write {path}: {reason}.", ["path": path, "reason": reason])
        case .recoveryKeyCharacter(let character):
            return tr("A recovery key has no “{character}”: check the key for a mistyped character.",
                      ["character": String(character)])
        case .recoveryKeyLength:
            return tr("This recovery key is too short or too long: check that all of it was copied.")
        case .recoveryKeyPrefix:
            return tr("This is not a recovery key: a recovery key is 48 letters and digits in groups of four.")
        case .recoveryKeyParity:
            return tr("This recovery key has a mistyped character: check it against the one you saved.")
        case .wrongRecoveryKey:
            return tr("This recovery key or passphrase does not unlock this account's secret storage.")
        case .secretMACMismatch(let name):
            return tr("The secret “{name}” cannot be decrypted: it was changed, or it was stored under another key.",
                      ["name": name])
        case .secretMalformed(let name):
            return tr("The secret “{name}” is not stored in a form Hark can read.", ["name": name])
        case .unsupportedAlgorithm(let algorithm):
            return tr("This account's secret storage uses “{algorithm}”, which Hark does not know.",
                      ["algorithm": algorithm])
        case .notCanonical:
            return tr("This data cannot be signed: it holds a number that is not a whole number within the signable range.")
        }
    }
}
