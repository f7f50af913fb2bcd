import AudioEngine
import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// The header bar's microphone choice: "System Default" first, then the
/// sound server's inputs, as radio items of the `win.microphone` action;
/// below them "Reduce Background Noise" (`win.reduce-noise`, on unless
/// turned off). Both are kept in the store's settings. The list is read again
/// (off the main thread) each time the menu opens, so a headset plugged in
/// later shows up. When the server's default input is an output's monitor
/// (no microphone), "System Default" says so.
@MainActor
final class MicrophoneMenu {
    static let settingKey = "microphone"
    static let reduceNoiseSetting = "reduce-noise"
    let button: UnsafeMutablePointer<GtkWidget>
    private let store: MessageStore
    private let menu: OpaquePointer
    /// The inputs' section, rebuilt as they change; the voice section stays.
    let inputs: OpaquePointer
    private let action: OpaquePointer
    private let reduceNoiseAction: OpaquePointer
    /// Under "Reduce Background Noise" when it cannot be had: why.
    let unavailableLabel: UnsafeMutablePointer<GtkWidget>?
    /// Why voice processing cannot be had here; nil when it can.
    let voiceProcessingUnavailable: String?
    /// Called when the inputs seen change (the default may now be a monitor).
    var onDevicesChange: @MainActor () -> Void = {}
    /// The inputs last seen; nil until the server was asked once.
    private(set) var devices: [AudioDevice]?
    /// The internal name chosen, "" for the system default.
    private(set) var chosen: String

    /// Called when the user picks another input.
    var onChange: @MainActor () -> Void = {}

    init(window: UnsafeMutableRawPointer, store: MessageStore,
         voiceProcessingUnavailable: String? = VoiceProcessing.unavailableReason) {
        self.store = store
        self.voiceProcessingUnavailable = voiceProcessingUnavailable
        chosen = store.setting(Self.settingKey) ?? ""
        menu = g_menu_new()!
        inputs = g_menu_new()!
        g_menu_append_section(menu, tr("Record From"), UnsafeMutableRawPointer(inputs).assumingMemoryBound(to: GMenuModel.self))
        let voice = g_menu_new()!
        g_menu_append(voice, tr("Reduce Background _Noise"), "win.reduce-noise")
        if voiceProcessingUnavailable != nil {
            let why = g_menu_item_new(nil, nil)!
            g_menu_item_set_attribute_value(why, "custom", g_variant_new_string("voice-unavailable"))
            g_menu_append_item(voice, why)
            g_object_unref(UnsafeMutableRawPointer(why))
        }
        g_menu_append_section(menu, nil, UnsafeMutableRawPointer(voice).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(voice))

        // Shown unchecked when it cannot be had; the user's choice stays stored.
        let reduceNoise = store.setting(Self.reduceNoiseSetting) != "off" && voiceProcessingUnavailable == nil
        reduceNoiseAction = g_simple_action_new_stateful("reduce-noise", nil, g_variant_new_boolean(reduceNoise ? 1 : 0))!
        g_simple_action_set_enabled(reduceNoiseAction, voiceProcessingUnavailable == nil ? 1 : 0)
        g_action_map_add_action(OpaquePointer(window), reduceNoiseAction)
        g_object_unref(UnsafeMutableRawPointer(reduceNoiseAction))  // the window holds it
        // Why the item is off, in the menu itself: a model item can carry no
        // tooltip, and a line the user can read beats one to hover for.
        unavailableLabel = voiceProcessingUnavailable.map { reason in
            let label = gtk_label_new(reason)!
            gtk_label_set_wrap(hark_label(label), 1)
            gtk_label_set_max_width_chars(hark_label(label), 36)
            gtk_label_set_xalign(hark_label(label), 0)
            gtk_widget_add_css_class(label, "caption")
            gtk_widget_add_css_class(label, "dim-label")
            gtk_widget_set_tooltip_text(label, reason)
            for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(label, 12) }
            return label
        }
        let stringType = g_variant_type_new("s")
        action = g_simple_action_new_stateful("microphone", stringType, g_variant_new_string(chosen))!
        g_variant_type_free(stringType)
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(UnsafeMutableRawPointer(action))  // the window holds it

        button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), "audio-input-microphone-symbolic")
        gtk_widget_set_tooltip_text(button, tr("Microphone"))
        hark_accessible_set_label(UnsafeMutableRawPointer(button), tr("Microphone"))
        gtk_menu_button_set_menu_model(OpaquePointer(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        if let popover = gtk_menu_button_get_popover(OpaquePointer(button)), let unavailableLabel {
            gtk_popover_menu_add_child(OpaquePointer(popover), unavailableLabel, "voice-unavailable")
        }

        Signal.connectPointer(UnsafeMutableRawPointer(action), "change-state") { [weak self] value in
            guard let self, let value else { return }
            let variant = OpaquePointer(value)
            self.chosen = String(cString: g_variant_get_string(variant, nil))
            g_simple_action_set_state(self.action, variant)
            try? self.store.setSetting(Self.settingKey, self.chosen.isEmpty ? nil : self.chosen)
            self.onChange()
        }
        Signal.connectPointer(UnsafeMutableRawPointer(reduceNoiseAction), "change-state") { [weak self] value in
            guard let self, let value else { return }
            g_simple_action_set_state(self.reduceNoiseAction, OpaquePointer(value))
            try? self.store.setSetting(Self.reduceNoiseSetting, g_variant_get_boolean(OpaquePointer(value)) != 0 ? nil : "off")
        }
        if let popover = gtk_menu_button_get_popover(OpaquePointer(button)) {
            Signal.connect(UnsafeMutableRawPointer(popover), "show") { [weak self] in self?.refresh() }
        }
        rebuild()
        refresh()
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(inputs))
        g_object_unref(UnsafeMutableRawPointer(menu))
    }

    /// Whether the next recording cleans up the voice: asked for and possible.
    var reducesNoise: Bool {
        guard voiceProcessingUnavailable == nil, let state = g_action_get_state(reduceNoiseAction) else { return false }
        defer { g_variant_unref(state) }
        return g_variant_get_boolean(state) != 0
    }

    /// Recording now would take "System Default" (chosen, or the fallback for
    /// an input that is gone) and that is an output's monitor, what the
    /// speakers play: the server has no microphone. PipeWire lists no
    /// default, so a list of monitors only says the same. A monitor chosen
    /// by name is chosen on purpose and not warned about.
    var recordsSpeakerOutput: Bool {
        guard source().source == .defaultMicrophone, let devices, !devices.isEmpty else { return false }
        return devices.defaultIsMonitor || devices.allSatisfy(\.isMonitor)
    }

    /// What to record from. A chosen input that is gone (unplugged) falls
    /// back to the system default; `fallback` says so, for the user.
    func source() -> (source: RecorderSource, fallback: String?) {
        guard !chosen.isEmpty else { return (.defaultMicrophone, nil) }
        if let devices, !devices.isEmpty, !devices.contains(where: { $0.internalName == chosen }) {
            return (.defaultMicrophone, tr("The chosen microphone is not connected; recording from the system default."))
        }
        return (.device(chosen), nil)
    }

    /// Asks the sound server for its inputs on another thread.
    func refresh() {
        Task { [weak self] in
            let found = await Task.detached { AudioDevices.inputs() }.value
            self?.show(found)
        }
    }

    /// Takes the inputs the server has now.
    func show(_ found: [AudioDevice]) {
        guard found != devices else { return }
        devices = found
        rebuild()
        onDevicesChange()
    }

    private func rebuild() {
        g_menu_remove_all(inputs)
        let noMicrophone = devices.map { !$0.isEmpty && ($0.defaultIsMonitor || $0.allSatisfy(\.isMonitor)) } ?? false
        // TRANSLATORS: the microphone menu's first item: the input the system chooses; when the system has
        // no microphone, it says that it records what the speakers play.
        let defaultLabel = noMicrophone ? tr("System Default (no microphone: records what plays)") : tr("System Default")
        append(to: inputs, label: defaultLabel, name: "")
        for device in devices ?? [] { append(to: inputs, label: device.displayName, name: device.internalName) }
        if let devices, !devices.contains(where: { $0.internalName == chosen }), !chosen.isEmpty {
            // TRANSLATORS: in the microphone menu, the input chosen earlier that is unplugged now; {name} is its name.
            append(to: inputs, label: tr("{name} (not connected)", ["name": chosen]), name: chosen)
        }
    }

    private func append(to section: OpaquePointer, label: String, name: String) {
        // Menu labels take "_" as a mnemonic mark; device names have real ones.
        let item = g_menu_item_new(label.replacingOccurrences(of: "_", with: "__"), nil)!
        g_menu_item_set_action_and_target_value(item, "win.microphone", g_variant_new_string(name))
        g_menu_append_item(section, item)
        g_object_unref(UnsafeMutableRawPointer(item))
    }
}
