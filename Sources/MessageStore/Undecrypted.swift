import Foundation
import Localization

/// A message that came encrypted and cannot be read (yet): the row that
/// stands for it in its room's history until its key arrives, and what that
/// row says. Pure, so it is tested without a display.
public struct Undecrypted: Sendable, Equatable {
    /// Since when it waits for its key.
    public var heldSince: Date
    /// The sender's code for not sharing its key with this device
    /// (`m.room_key.withheld`: "m.unverified", "m.blacklisted"…), if it said so.
    public var withheld: String?
    /// Its key did not come for `patience` of syncs: it will most likely never come.
    public var gaveUp: Bool
    /// Why it will never be read (a replay, another room's event), in words.
    public var refusal: String?

    /// How long syncs wait for a key before the row says it never came.
    public static let patience: TimeInterval = 10 * 60

    public init(heldSince: Date, withheld: String? = nil, gaveUp: Bool = false, refusal: String? = nil) {
        self.heldSince = heldSince
        self.withheld = withheld
        self.gaveUp = gaveUp
        self.refusal = refusal
    }

    /// Where it stands, for scripts (`hark list --json`).
    public enum Standing: String, Sendable {
        /// Its key may arrive any moment.
        case waiting
        /// The sender said the key is not for this device.
        case withheld
        /// Its key did not come for `patience` of syncs.
        case neverCame = "never_came"
        /// It will never be read.
        case refused
    }

    public var standing: Standing {
        if refusal != nil { return .refused }
        if withheld != nil { return .withheld }
        return gaveUp ? .neverCame : .waiting
    }

    /// What its row says of it.
    public var sentence: String {
        switch standing {
        case .refused: return refusal ?? ""
        case .withheld: return Self.withheldSentence(withheld ?? "")
        case .neverCame:
            return tr("This message's key never came. A device cannot read what was sent before it signed in unless another device shares the key.")
        case .waiting: return tr("Waiting for this message's key")
        }
    }

    /// The sender's reason for not sharing a key with this device, in words.
    static func withheldSentence(_ code: String) -> String {
        switch code {
        case "m.unverified":
            return tr("The sender did not share this message's key with this device because it is not verified. Verify it with your recovery key to read what comes next.")
        case "m.blacklisted":
            return tr("The sender did not share this message's key with this device: they blocked it.")
        case "m.no_olm":
            return tr("The sender did not share this message's key with this device: their device could not set up a secure channel to it.")
        default:
            return tr("The sender did not share this message's key with this device.")
        }
    }
}
