import AudioEngine
import Foundation
import CAdwaita
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// Import… through GtkFileChooserNative: the desktop's own
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
