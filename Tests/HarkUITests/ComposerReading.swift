import CGLib
import CGtk
@testable import HarkUI

/// The composer as the user sees it: its widgets, and the recording's clock.
extension ComposerView {
    /// The hint beside Record (or why it is unavailable).
    var hintShown: String { gtk_label_get_text(hark_label(hint)).map { String(cString: $0) } ?? "" }
    var recordIsSensitive: Bool { gtk_widget_get_sensitive(recordButton) != 0 }
    var recordTooltip: String { gtk_widget_get_tooltip_text(recordButton).map { String(cString: $0) } ?? "" }

    /// The notice shown, nil when none is.
    var noticeText: String? {
        guard gtk_widget_get_visible(notice) != 0, let text = gtk_label_get_text(hark_label(notice)) else { return nil }
        return String(cString: text)
    }

    /// Seconds recorded so far in the recording under way.
    var recordedSeconds: Double { recorder?.elapsed ?? 0 }
}

extension MicrophoneMenu {
    /// The inputs' labels as the menu shows them.
    var inputLabels: [String] {
        let model = UnsafeMutableRawPointer(inputs).assumingMemoryBound(to: GMenuModel.self)
        return (0..<g_menu_model_get_n_items(model)).compactMap { index in
            guard let label = g_menu_model_get_item_attribute_value(model, index, "label", nil) else { return nil }
            defer { g_variant_unref(label) }
            return String(cString: g_variant_get_string(label, nil)).replacingOccurrences(of: "__", with: "_")
        }
    }
}
