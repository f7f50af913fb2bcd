import CGtk
@testable import HarkUI

extension MainWindow {
    /// "history", "empty" or "no-results": what the window shows above the composer.
    var visiblePage: String {
        gtk_stack_get_visible_child_name(OpaquePointer(stack)).map { String(cString: $0) } ?? ""
    }
}
