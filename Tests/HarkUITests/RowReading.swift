import CGtk
@testable import HarkUI

extension MessageRow {
    /// The line a message without its audio shows (downloading, failed, gone), when shown.
    var shownMissing: String? { gtk_widget_get_visible(missing) != 0 ? Self.text(of: missing) : nil }
    /// Whether the row offers Retry (or Send).
    var showsRetry: Bool { gtk_widget_get_visible(retryButton) != 0 }
}
