import CGLib
import CGtk
@testable import HarkUI

extension MessageRow {
    /// The line a message without its audio shows (downloading, failed, gone), when shown.
    var shownMissing: String? { gtk_widget_get_visible(missing) != 0 ? Self.text(of: missing) : nil }
    /// Whether the row offers Retry (or Send).
    var showsRetry: Bool { gtk_widget_get_visible(retryButton) != 0 }
    /// Whether the row marks its message as sent from a device its owner has not verified.
    var showsUnverifiedMark: Bool { gtk_widget_get_visible(unverifiedMark) != 0 }

    /// nil when the row's list item is described as `expected` (its
    /// accessible description), else what it is described as.
    func descriptionDiffers(from expected: String) -> String? {
        guard let item = listItemWidget else { return "(no list item)" }
        guard let found = hark_accessible_check_string(UnsafeMutableRawPointer(item), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                       expected) else { return nil }
        defer { g_free(found) }
        return String(cString: found)
    }
}
