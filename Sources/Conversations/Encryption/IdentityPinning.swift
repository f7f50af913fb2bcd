import MessageStore

/// Trust on first use for cross-signing identities: what the master key a
/// `/keys/query` gives for a user means against the one pinned for them.
/// The first seen is pinned; another later is a change that keeps every
/// device of theirs from counting as cross-signed until the user accepts
/// it. Pure: the store keeps the pins, DeviceDirectory acts on the verdict.
public enum IdentityPinning {
    public enum Verdict: Sendable, Equatable {
        /// No master key published: nothing of theirs is cross-signed, nothing pinned.
        case noIdentity
        /// The first key seen for them: pin it, and trust it.
        case pinFirst(masterKey: String)
        /// The pinned key (`revertedChange`: a change noted before went back to it: forget the change).
        case pinned(revertedChange: Bool)
        /// Another key than the pinned one, not accepted: trust none of their
        /// devices. `isNew`: not noted before (record it and say so).
        case changed(to: String, isNew: Bool)
    }

    /// `published`: the master key the server gives now (nil: none). A
    /// signature the server shows is never taken for acceptance (the server
    /// could make one): only the user accepts, or unlocks the account's own
    /// new identity with its recovery key here (CrossSigning pins it then).
    public static func verdict(pinned: PinnedIdentity?, published: String?) -> Verdict {
        guard let published else { return .noIdentity }
        guard let pinned else { return .pinFirst(masterKey: published) }
        if published == pinned.masterKey { return .pinned(revertedChange: pinned.changedTo != nil) }
        return .changed(to: published, isNew: pinned.changedTo != published)
    }
}

extension IdentityPinning.Verdict {
    /// Whether devices the identity cross-signed count as cross-signed.
    public var isTrusted: Bool {
        switch self {
        case .pinFirst, .pinned: return true
        case .noIdentity, .changed: return false
        }
    }
}
