import CGtk
import GLibSupport

@MainActor
public enum MenuButton {
    /// Gives `button` its menu only when it is first opened: building a
    /// popover for every row of a long list is what makes it slow to show.
    public static func setMenuLazily(_ button: UnsafeMutablePointer<GtkWidget>, _ model: UnsafeMutablePointer<GMenuModel>) {
        nonisolated(unsafe) let model = model  // a GMenuModel the caller keeps alive; used on this thread only
        let box = HandlerBox<SignalHandler> {
            gtk_menu_button_set_menu_model(OpaquePointer(button), model)
        }
        gtk_menu_button_set_create_popup_func(OpaquePointer(button), menuPopupTrampoline, box.retainedPointer(),
                                              releaseHandlerBox)
    }
}
