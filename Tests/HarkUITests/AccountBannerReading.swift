@testable import HarkUI

extension AccountBanner {
    /// Whether the banner stands for a reason to act (it is shown).
    var isShown: Bool { reason != nil }
}
