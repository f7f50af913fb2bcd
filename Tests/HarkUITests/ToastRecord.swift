@testable import HarkUI

/// Everything a window said in toasts, in order, heard through its
/// `showToast` (the fixture listens to each window it makes).
@MainActor
enum ToastRecord {
    private static var said: [ObjectIdentifier: [String]] = [:]

    static func listen(to window: MainWindow) {
        let id = ObjectIdentifier(window)
        said[id] = []
        let show = window.showToast
        window.showToast = { toast, text in
            said[id, default: []].append(text)
            show(toast, text)
        }
    }

    static func texts(of window: MainWindow) -> [String] { said[ObjectIdentifier(window)] ?? [] }
}

extension MainWindow {
    /// Every toast text the window said, in order.
    var toastTexts: [String] { ToastRecord.texts(of: self) }
}
