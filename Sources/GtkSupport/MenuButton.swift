import CGtk
import GLibSupport

@MainActor
public enum MenuButton {
    /// Gives `button` its menu only when it is first opened: building a
    /// popover for every row of a long list is what makes it slow to show.
    /// `created` gets the popover once it exists, before it first shows.
    public static func setMenuLazily(_ button: UnsafeMutablePointer<GtkWidget>, _ model: UnsafeMutablePointer<GMenuModel>,
                                     created: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void = { _ in }) {
        nonisolated(unsafe) let model = model  // a GMenuModel the caller keeps alive; used on this thread only
        let box = HandlerBox<SignalHandler> {
            gtk_menu_button_set_menu_model(OpaquePointer(button), model)
            if let popover = gtk_menu_button_get_popover(OpaquePointer(button)) { created(Widget.widget(popover)) }
        }
        gtk_menu_button_set_create_popup_func(OpaquePointer(button), menuPopupTrampoline, box.retainedPointer(),
                                              releaseHandlerBox)
    }
}
