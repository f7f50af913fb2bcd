import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import Identity
import Localization
import MessageStore

/// The GUI: one AdwApplication, single instance through D-Bus (a second launch
/// activates the first, which presents its window), one main window.
@MainActor
public final class HarkApplication {
    private let application: ObjectRef
    private var mainWindow: MainWindow?
    private var gallery: GalleryWindow?
    private let opensGallery: Bool
    private var store: MessageStore?
    /// The Matrix account and its running session: the application's, so
    /// syncing and sending do not end with a window.
    private var account: AccountModel?
    private var storeProblem: String?
    private var stillGallery = false

    /// `applicationID` and `flags` differ from the defaults only in tests,
    /// which must not meet a Hark the user is running.
    public init(applicationID: String = AppInfo.id, flags: GApplicationFlags = G_APPLICATION_DEFAULT_FLAGS,
                gallery: Bool = false) {
        opensGallery = gallery
        application = ObjectRef(owning: UnsafeMutableRawPointer(adw_application_new(applicationID, flags)))
        application.connect("startup") { [unowned self] in self.startup() }
        application.connect("activate") { [unowned self] in self.activate() }
        application.connect("shutdown") { [unowned self] in
            self.mainWindow?.purgePendingDeletions()  // deletions whose undo toast was still up
            self.mainWindow?.transcription?.stop()  // the helper ends with Hark
            self.account?.stop()
            ExportWriter.abandonAll()  // an export still writing leaves no half-written file
        }
    }

    /// The gallery of widgets (`hark gallery`): its own application id, not
    /// single instance, so it opens beside a running Hark.
    public static func gallery(still: Bool = false) -> HarkApplication {
        let app = HarkApplication(applicationID: AppInfo.id + ".Gallery", flags: G_APPLICATION_NON_UNIQUE, gallery: true)
        app.stillGallery = still
        return app
    }

    /// Runs the GLib main loop until the application quits; returns its exit status.
    /// GTK gets only the program name: Hark's own command line is parsed before.
    public func run(programName: String) -> Int32 {
        prepareGtk() ?? runLoop(programName: programName)
    }

    /// `hark record --toggle`: the running Hark starts or stops a recording
    /// (its `app.record-toggle`, activated over D-Bus as `gapplication action`
    /// does); with none running, this one opens its window and starts.
    public func runTogglingRecording(programName: String) -> Int32 {
        switch activateInRunningInstance(Self.recordToggleAction) {
        case .done: return 0
        case .failed(let reason):
            FileHandle.standardError.write(Data("hark: \(reason)\n".utf8))
            return 1
        case .noneRunning:
            togglesRecordingOnActivate = true
            return run(programName: programName)
        }
    }

    private enum RemoteActivation { case done, noneRunning, failed(String) }

    /// Activates the application action `name` in the instance that owns
    /// this application's id on the session bus (org.freedesktop.Application).
    private func activateInRunningInstance(_ name: String) -> RemoteActivation {
        var error: UnsafeMutablePointer<GError>?
        defer { if error != nil { g_error_free(error) } }
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            return .failed(error.map { String(cString: $0.pointee.message) } ?? "")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let id = String(cString: g_application_get_application_id(application.as(GApplication.self)))
        let path = "/" + id.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_")
        let variants = g_variant_type_new("v"), entries = g_variant_type_new("{sv}")
        defer { g_variant_type_free(variants); g_variant_type_free(entries) }
        var arguments: [OpaquePointer?] = [g_variant_new_string(name), g_variant_new_array(variants, nil, 0), g_variant_new_array(entries, nil, 0)]
        let reply = g_dbus_connection_call_sync(bus, id, path, "org.freedesktop.Application", "ActivateAction",
                                                g_variant_new_tuple(&arguments, gsize(arguments.count)), nil,
                                                G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, &error)
        if let reply {
            g_variant_unref(reply)
            return .done
        }
        let quark = g_dbus_error_quark()
        if g_error_matches(error, quark, gint(G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue)) != 0
            || g_error_matches(error, quark, gint(G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue)) != 0 {
            return .noneRunning
        }
        return .failed(error.map { String(cString: $0.pointee.message) } ?? "")
    }

    static let recordToggleAction = "record-toggle"
    private var togglesRecordingOnActivate = false

    private func toggleRecording() {
        guard !opensGallery else { return }
        if mainWindow?.isVisible != true { activate() }
        mainWindow?.composer?.toggleRecording()
    }

    /// `hark --background` (the autostart entry, Running in the Background):
    /// signed in, syncing and notifying with the window not shown until a
    /// notification or a launch asks for it; nothing when Hark already runs.
    public func runInBackground(programName: String) -> Int32 {
        if isRunningElsewhere() { return 0 }
        if let status = prepareGtk() { return status }
        startsHidden = true
        return runLoop(programName: programName)
    }
    private var startsHidden = false

    /// Whether another process owns this application's id on the session bus.
    private func isRunningElsewhere() -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let id = g_application_get_application_id(application.as(GApplication.self))
        var arguments: [OpaquePointer?] = [g_variant_new_string(id)]
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", g_variant_new_tuple(&arguments, 1), nil,
                                                      G_DBUS_CALL_FLAGS_NONE, -1, nil, nil) else { return false }
        defer { g_variant_unref(reply) }
        let owned = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    /// GTK started for the window, or the status to end with when it cannot be.
    private func prepareGtk() -> Int32? {
        MainLoop.bridgeSwiftConcurrency()
        // GtkApplication initialises GTK at startup; this does it sooner, to
        // pick the renderer before any window exists.
        guard gtk_init_check() != 0 else {
            // GTK without a display crashes further on; the command line needs none.
            let reason = tr("the window cannot open: no display to show it on (is this a graphical session?); "
                + "the commands work without one (see 'hark --help')")
            FileHandle.standardError.write(Data("hark: \(reason)\n".utf8))
            return 1
        }
        RendererChoice.preferCairoOverSoftwareOpenGL()
        return nil
    }

    private func runLoop(programName: String) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(programName), nil]
        defer { free(argv[0]) }
        return g_application_run(application.as(GApplication.self), 1, &argv)
    }

    /// The GtkApplication, for windows and tests.
    public var gtkApplication: UnsafeMutablePointer<GtkApplication> { application.as(GtkApplication.self) }

    /// Ctrl+C in a terminal, SIGTERM from a session ending, SIGHUP from a
    /// closed terminal: quit as Ctrl+Q does, saving a take in progress. A
    /// second signal, or a quit still not done after a few seconds, ends the
    /// process at once; a recording cut off that way is saved at the next
    /// start (its file is written as it goes).
    private func quitOnSignals() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signalSources.append(MainLoop.onUnixSignal(number) { [unowned self] in
                if self.quittingOnSignal { exit(128 + number) }
                self.quittingOnSignal = true
                self.quit()
                MainLoop.timeout(milliseconds: Self.signalQuitMilliseconds) {
                    exit(128 + number)
                }
                return true
            })
        }
    }
    private var signalSources: [Source] = []
    private var quittingOnSignal = false
    private static let signalQuitMilliseconds: UInt32 = 3_000

    private func startup() {
        quitOnSignals()
        if !opensGallery {
            do {
                let store = try Self.openStore()
                self.store = store
                account = AccountModel(store: store)
            } catch {
                storeProblem = "\(error)"
            }
        }
        Style.install()
        gtk_window_set_default_icon_name(AppInfo.id)
        Actions.add(to: application.pointer, "quit") { [unowned self] in self.quit() }
        Actions.add(to: application.pointer, "about") { [unowned self] in self.showAbout() }
        Actions.add(to: application.pointer, Self.recordToggleAction) { [unowned self] in self.toggleRecording() }
        Actions.setAccels(gtkApplication, "app.quit", ["<Control>q"])
        Actions.setAccels(gtkApplication, "window.close", ["<Control>w"])
    }

    private func activate() {
        if opensGallery {
            let window = gallery ?? GalleryWindow(application: gtkApplication, moving: !stillGallery)
            gallery = window
            window.present()
            return
        }
        if let mainWindow {
            mainWindow.present()
            return
        }
        let window = MainWindow(application: gtkApplication, store: store, storeProblem: storeProblem, account: account)
        mainWindow = window
        if let summary = store?.recovery.damageSummary {
            window.toast(summary, seconds: MainWindow.problemSeconds)
        }
        // Forget the window once GTK destroys it, so a later activation (a
        // second launch while this one shuts down) builds a new one.
        Signal.connect(UnsafeMutableRawPointer(window.window), "destroy") { [weak self, weak window] in
            if let self, self.mainWindow === window { self.mainWindow = nil }
        }
        FrameReport.watch(window.window)
        if startsHidden {
            startsHidden = false
        } else {
            window.present()
        }
        window.recoverAfterFirstFrame()
        window.conversations?.restore()  // the Matrix account, its token from the keyring
        if togglesRecordingOnActivate {
            togglesRecordingOnActivate = false
            toggleRecording()
        }
    }

    /// The window's store, opened without its quick check for damage (it
    /// reads every message): the check, and recovery (which may analyse
    /// files), run on a thread of their own once the window's first frame is
    /// painted (`MainWindow.recoverAfterFirstFrame`), and a salvage is
    /// announced then. A database whose header is gone is salvaged here.
    static func openStore(folder: URL = MessageStore.defaultFolder) throws(StoreError) -> MessageStore {
        try MessageStore(folder: folder, checkingForDamage: false)
    }

    /// Closes the window (saving a recording in progress first), even when
    /// Hark runs in the background; the application ends with its last window.
    private func quit() {
        if let mainWindow {
            mainWindow.quit()
        } else {
            g_application_quit(application.as(GApplication.self))
        }
    }

    private func showAbout() {
        AboutDialog.present(over: mainWindow?.window)
    }
}
