import AudioEngine
import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import MessageStore

/// The header bar's microphone choice: "System Default" first, then the
/// sound server's inputs, as radio items of the `win.microphone` action.
/// The choice is kept in the store's settings. The list is read again (off
/// the main thread) each time the menu opens, so a headset plugged in later
/// shows up.
@MainActor
final class MicrophoneMenu {
    static let settingKey = "microphone"
    let button: UnsafeMutablePointer<GtkWidget>
    private let store: MessageStore
    private let menu: OpaquePointer
    private let action: OpaquePointer
    /// The inputs last seen; nil until the server was asked once.
    private(set) var devices: [AudioDevice]?
    /// The internal name chosen, "" for the system default.
    private(set) var chosen: String

    /// Called when the user picks another input.
    var onChange: @MainActor () -> Void = {}

    init(window: UnsafeMutableRawPointer, store: MessageStore) {
        self.store = store
        chosen = store.setting(Self.settingKey) ?? ""
        menu = g_menu_new()!
        let stringType = g_variant_type_new("s")
        action = g_simple_action_new_stateful("microphone", stringType, g_variant_new_string(chosen))!
        g_variant_type_free(stringType)
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(UnsafeMutableRawPointer(action))  // the window holds it

        button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), "audio-input-microphone-symbolic")
        gtk_widget_set_tooltip_text(button, "Microphone")
        hark_accessible_set_label(UnsafeMutableRawPointer(button), "Microphone")
        gtk_menu_button_set_menu_model(OpaquePointer(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))

        Signal.connectPointer(UnsafeMutableRawPointer(action), "change-state") { [weak self] value in
            guard let self, let value else { return }
            let variant = OpaquePointer(value)
            self.chosen = String(cString: g_variant_get_string(variant, nil))
            g_simple_action_set_state(self.action, variant)
            try? self.store.setSetting(Self.settingKey, self.chosen.isEmpty ? nil : self.chosen)
            self.onChange()
        }
        if let popover = gtk_menu_button_get_popover(OpaquePointer(button)) {
            Signal.connect(UnsafeMutableRawPointer(popover), "show") { [weak self] in self?.refresh() }
        }
        rebuild()
        refresh()
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(menu))
    }

    /// What to record from. A chosen input that is gone (unplugged) falls
    /// back to the system default; `fallback` says so, for the user.
    func source() -> (source: RecorderSource, fallback: String?) {
        guard !chosen.isEmpty else { return (.defaultMicrophone, nil) }
        if let devices, !devices.isEmpty, !devices.contains(where: { $0.internalName == chosen }) {
            return (.defaultMicrophone, "The chosen microphone is not connected; recording from the system default.")
        }
        return (.device(chosen), nil)
    }

    /// Asks the sound server for its inputs on another thread.
    func refresh() {
        Task { [weak self] in
            let found = await Task.detached { AudioDevices.inputs() }.value
            guard let self else { return }
            if found != self.devices {
                self.devices = found
                self.rebuild()
            }
        }
    }

    private func rebuild() {
        g_menu_remove_all(menu)
        let section = g_menu_new()!
        append(to: section, label: "System Default", name: "")
        for device in devices ?? [] { append(to: section, label: device.displayName, name: device.internalName) }
        if let devices, !devices.contains(where: { $0.internalName == chosen }), !chosen.isEmpty {
            append(to: section, label: "\(chosen) (not connected)", name: chosen)
        }
        g_menu_append_section(menu, "Record From", UnsafeMutableRawPointer(section).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(section))
    }

    private func append(to section: OpaquePointer, label: String, name: String) {
        // Menu labels take "_" as a mnemonic mark; device names have real ones.
        let item = g_menu_item_new(label.replacingOccurrences(of: "_", with: "__"), nil)!
        g_menu_item_set_action_and_target_value(item, "win.microphone", g_variant_new_string(name))
        g_menu_append_item(section, item)
        g_object_unref(UnsafeMutableRawPointer(item))
    }
}
