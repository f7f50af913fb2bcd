import CGLib
import CGtk
import GLibSupport

@MainActor
public enum MenuButton {
    /// Gives `button` its menu only when it is opened, made then by `model`
    /// (a new GMenuModel each time, which the button takes): building a
    /// popover for every row of a long list is what makes it slow to show,
    /// and a menu made as it opens shows what applies then. `created` gets
    /// each popover once it exists, before it shows.
    public static func setMenuOnOpen(_ button: UnsafeMutablePointer<GtkWidget>,
                                     _ model: @escaping @MainActor () -> UnsafeMutablePointer<GMenuModel>,
                                     created: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void = { _ in }) {
        let box = HandlerBox<SignalHandler> {
            let made = model()
            gtk_menu_button_set_menu_model(OpaquePointer(button), made)
            g_object_unref(UnsafeMutableRawPointer(made))
            if let popover = gtk_menu_button_get_popover(OpaquePointer(button)) { created(Widget.widget(popover)) }
        }
        gtk_menu_button_set_create_popup_func(OpaquePointer(button), menuPopupTrampoline, box.retainedPointer(),
                                              releaseHandlerBox)
    }
}
