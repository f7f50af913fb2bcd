import CGLib
import CGStreamer
import GLibSupport

/// An input the user can record from.
public struct AudioDevice: Sendable, Equatable, Hashable {
    /// What to show: "Built-in Audio Analog Stereo".
    public let displayName: String
    /// The sound server's name for it, for `RecorderSource.device`.
    public let internalName: String
    /// The monitor of an output: it records what the speakers play, not a voice.
    public var isMonitor: Bool = false
    /// The server's default input ("System Default" records from it).
    public var isDefault: Bool = false

    public init(displayName: String, internalName: String, isMonitor: Bool = false, isDefault: Bool = false) {
        self.displayName = displayName
        self.internalName = internalName
        self.isMonitor = isMonitor
        self.isDefault = isDefault
    }
}

extension Array where Element == AudioDevice {
    /// True when the server's default input is known to be an output's
    /// monitor: a machine with no microphone, where "System Default" would
    /// record whatever plays.
    public var defaultIsMonitor: Bool { first(where: \.isDefault)?.isMonitor ?? false }
}

/// The sound server's capture devices, through GstDeviceMonitor.
public enum AudioDevices {
    /// The current inputs (monitors of outputs included: they record what
    /// plays). Empty when there is no sound server. Quick, but it talks to
    /// the server: call it off the main thread when the UI is up.
    public static func inputs() -> [AudioDevice] {
        GStreamer.ensureInitialised()
        guard let monitor = gst_device_monitor_new() else { return [] }
        defer { gst_object_unref(UnsafeMutableRawPointer(monitor)) }
        gst_device_monitor_add_filter(monitor, "Audio/Source", nil)
        guard gst_device_monitor_start(monitor) != 0 else { return [] }
        defer { gst_device_monitor_stop(monitor) }
        var devices: [AudioDevice] = []
        var node = gst_device_monitor_get_devices(monitor)
        let list = node
        while let current = node {
            let device = current.pointee.data.assumingMemoryBound(to: GstDevice.self)
            if let name = internalName(of: device), let display = gst_device_get_display_name(device) {
                let (isMonitor, isDefault) = roles(of: device, internalName: name)
                devices.append(AudioDevice(displayName: String(cString: display), internalName: name,
                                           isMonitor: isMonitor, isDefault: isDefault))
                g_free(display)
            }
            node = current.pointee.next
        }
        g_list_free_full(list) { gst_object_unref($0) }
        return devices
    }

    /// PulseAudio's provider marks an output's monitor with `device.class=monitor`
    /// and the default input with `is-default`; a name ending in ".monitor" is
    /// PulseAudio's (and PipeWire's) convention for monitors as well.
    private static func roles(of device: UnsafeMutablePointer<GstDevice>, internalName: String) -> (monitor: Bool, default: Bool) {
        var monitor = internalName.hasSuffix(".monitor")
        var isDefault = false
        if let properties = gst_device_get_properties(device) {
            defer { gst_structure_free(properties) }
            if let deviceClass = gst_structure_get_string(properties, "device.class") {
                monitor = monitor || String(cString: deviceClass) == "monitor"
            }
            var flag: gboolean = 0
            if gst_structure_get_boolean(properties, "is-default", &flag) != 0 { isDefault = flag != 0 }
        }
        return (monitor, isDefault)
    }

    /// PulseAudio's devices carry it as "internal-name". Under PipeWire its
    /// own provider hides PulseAudio's, and names a device "node.name" in
    /// its properties — the same name its PulseAudio layer gives `pulsesrc`.
    private static func internalName(of device: UnsafeMutablePointer<GstDevice>) -> String? {
        let instance = UnsafeMutableRawPointer(device)
        let objectClass = instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
            .withMemoryRebound(to: GObjectClass.self, capacity: 1) { $0 }
        if g_object_class_find_property(objectClass, "internal-name") != nil,
           let value = hark_object_get_string(instance, "internal-name") {
            defer { g_free(value) }
            return String(cString: value)
        }
        guard let properties = gst_device_get_properties(device) else { return nil }
        defer { gst_structure_free(properties) }
        return gst_structure_get_string(properties, "node.name").map { String(cString: $0) }
    }
}
