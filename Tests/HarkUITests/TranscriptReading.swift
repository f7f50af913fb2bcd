import CGtk
@testable import HarkUI

extension TranscriptView {
    /// What the line shows now, as text.
    var lineText: String {
        gtk_label_get_text(hark_label(line)).map { String(cString: $0) } ?? ""
    }

    /// The segments shown, as text.
    var segmentTexts: [String] {
        segmentButtons.map { button in
            gtk_button_get_child(hark_button(button)).flatMap { gtk_label_get_text(hark_label($0)) }.map { String(cString: $0) } ?? ""
        }
    }
}
