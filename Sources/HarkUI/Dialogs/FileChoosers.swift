import AudioEngine
import Foundation
import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// Import… and Export… through GtkFileChooserNative: the desktop's own
/// chooser through the portal when there is one (and in a Flatpak), GTK's
/// otherwise. Each calls back only when the user chose.
@MainActor
enum FileChoosers {
    /// Choosers being shown: nothing else holds them until they answer.
    private static var open: [UnsafeMutableRawPointer: ObjectRef] = [:]

    /// Asks for audio files to import.
    static func chooseAudioFiles(over parent: UnsafeMutablePointer<GtkWindow>?,
                                 chosen: @escaping @MainActor ([String]) -> Void) {
        let chooser = gtk_file_chooser_native_new(tr("Import Audio Files"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                                tr("_Import"), tr("_Cancel"))!
        gtk_file_chooser_set_select_multiple(chooser, 1)
        addFilter(to: chooser, name: tr("Audio Files"), mimeType: "audio/*")
        addFilter(to: chooser, name: tr("All Files"), pattern: "*")
        show(chooser) {
            guard let files = gtk_file_chooser_get_files(chooser) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(files)) }
            let paths = (0..<g_list_model_get_n_items(files)).compactMap { index -> String? in
                guard let file = g_list_model_get_item(files, index) else { return nil }
                defer { g_object_unref(file) }
                return path(of: file)
            }
            if !paths.isEmpty { chosen(paths) }
        }
    }

    /// Where the last export went, and in which format: the next one starts there.
    private static var lastExportFolder: String?
    private static var lastExportFormat: AudioFormat = .opus

    /// Asks where to save a copy and in which format (a choice in the
    /// chooser, or the extension typed), suggesting the message's name, in the folder of the last
    /// export or the home folder (never the working directory, which for a
    /// launched app is wherever it was started from). The path's extension
    /// is made to match the format. GTK's chooser asks before replacing the
    /// file it shows, so that path may be overwritten.
    static func chooseExportPath(over parent: UnsafeMutablePointer<GtkWindow>?, title: String, original: AudioFormat?,
                                 chosen: @escaping @MainActor (_ path: String, _ format: AudioFormat, _ confirmed: Bool) -> Void) {
        let chooser = gtk_file_chooser_native_new(tr("Export Message"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                                                tr("_Export"), tr("_Cancel"))!
        let folder = g_file_new_for_path(lastExportFolder ?? String(cString: g_get_home_dir()))
        _ = gtk_file_chooser_set_current_folder(chooser, folder, nil)
        g_object_unref(UnsafeMutableRawPointer(folder))
        let formats = AudioFormat.allCases
        withCStrings(formats.map(\.rawValue)) { ids in
            withCStrings(formats.map { $0.choiceName(original: original) }) { labels in
                // TRANSLATORS: the label of the export chooser's list of audio formats.
                gtk_file_chooser_add_choice(chooser, "format", tr("Format"), ids, labels)
            }
        }
        let offered = lastExportFormat
        gtk_file_chooser_set_choice(chooser, "format", offered.rawValue)
        gtk_file_chooser_set_current_name(chooser, ExportName.forTitle(title, fileExtension: lastExportFormat.fileExtension))
        show(chooser) {
            guard let file = gtk_file_chooser_get_file(chooser) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let path = path(of: UnsafeMutableRawPointer(file)) else { return }
            let choice = gtk_file_chooser_get_choice(chooser, "format").flatMap { AudioFormat(rawValue: String(cString: $0)) }
            let format = Self.format(chosen: choice, offered: offered, typed: path)
            lastExportFolder = (path as NSString).deletingLastPathComponent
            lastExportFormat = format
            let matching = Self.path(path, withExtensionOf: format)
            chosen(matching, format, matching == path)
        }
    }

    /// The format to write: the one picked in the chooser if the user changed
    /// it, else the one the typed name's extension asks for, else the one offered.
    nonisolated static func format(chosen: AudioFormat?, offered: AudioFormat, typed path: String) -> AudioFormat {
        if let chosen, chosen != offered { return chosen }
        return AudioFormat(pathExtensionOf: path) ?? chosen ?? offered
    }

    /// `path` with the format's extension: a known audio extension is
    /// replaced, anything else kept and the extension added.
    nonisolated static func path(_ path: String, withExtensionOf format: AudioFormat) -> String {
        let url = URL(fileURLWithPath: path)
        if AudioFormat(pathExtensionOf: path) == format { return path }
        let base = AudioFormat(pathExtensionOf: path) != nil ? url.deletingPathExtension() : url
        return base.path + "." + format.fileExtension
    }

    /// Calls `body` with a NULL-terminated C array of the strings.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    private static func show(_ chooser: OpaquePointer, accepted: @escaping @MainActor () -> Void) {
        let key = UnsafeMutableRawPointer(chooser)
        open[key] = ObjectRef(owning: key)
        gtk_native_dialog_set_modal(key.assumingMemoryBound(to: GtkNativeDialog.self), 1)
        Signal.connectInt(key, "response") { response in
            if response == Int(GTK_RESPONSE_ACCEPT.rawValue) { accepted() }
            // Released after the handler returns: GTK is still inside the emission.
            MainLoop.idle { open[key] = nil; return false }
        }
        gtk_native_dialog_show(key.assumingMemoryBound(to: GtkNativeDialog.self))
    }

    private static func addFilter(to chooser: OpaquePointer, name: String, mimeType: String? = nil, pattern: String? = nil) {
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, name)
        if let mimeType { gtk_file_filter_add_mime_type(filter, mimeType) }
        if let pattern { gtk_file_filter_add_pattern(filter, pattern) }
        gtk_file_chooser_add_filter(chooser, filter)
        g_object_unref(UnsafeMutableRawPointer(filter))  // the chooser holds its own reference
    }

    /// A local path for a GFile (nil for one without, e.g. a remote URI).
    static func path(of file: UnsafeMutableRawPointer) -> String? {
        guard let path = g_file_get_path(OpaquePointer(file)) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}
