import CGtk
@testable import HarkUI

extension InvitationBanner {
    /// Whether the banner is revealed.
    var isShown: Bool { gtk_revealer_get_reveal_child(OpaquePointer(widget)) != 0 }

    /// What the banner says, as its label shows it.
    var text: String { gtk_label_get_text(hark_label(label)).map { String(cString: $0) } ?? "" }
}

extension AccountBanner {
    /// Whether the banner stands for a reason to act (it is shown).
    var isShown: Bool { reason != nil }
}
