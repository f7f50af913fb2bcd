import AudioEngine
import CAdwaita
import Foundation
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// Export…: GTK's save dialog whose list of file types is the list of
/// formats. The name and the list never disagree: an extension typed into
/// the name picks its format as it is typed, and a format picked in the list
/// rewrites the name's extension, so what is written is what the name says.
///
/// GTK's own dialog rather than GtkFileChooserNative: the native chooser's
/// name field is out of reach, so the list could not follow what is typed
/// (and GTK 4.8's fallback showed a remembered format's name beside the
/// first format of its list).
@MainActor
final class ExportChooser {
    typealias Chosen = @MainActor (_ path: String, _ format: AudioFormat, _ confirmed: Bool) -> Void

    /// Where the last export went, and in which format: the next one starts there.
    private static var lastFolder: String?
    private static var lastFormat: AudioFormat = .opus
    /// Choosers being shown: nothing else holds them until they answer.
    private static var shown: [ObjectIdentifier: ExportChooser] = [:]

    private let dialog: UnsafeMutablePointer<GtkWidget>
    private var chooser: OpaquePointer { hark_file_chooser(dialog) }
    /// One filter a format, in `AudioFormat.allCases`' order.
    private var filters: [(format: AudioFormat, filter: OpaquePointer)] = []
    /// The dialog's name field, where typing happens (GTK keeps it private).
    private var nameField: UnsafeMutablePointer<GtkWidget>?
    /// Set while the chooser itself changes the name or the list, so that
    /// the change does not come back as the user's.
    private var following = false

    /// Asks where to save a copy and in which format, suggesting the
    /// message's name, in the folder of the last export or the home folder
    /// (never the working directory, which for a launched app is wherever it
    /// was started from). `chosen` gets the path, its format and whether GTK
    /// asked before replacing it (only the path the user saw is confirmed; a
    /// name given its format's extension here never replaces anything).
    static func ask(over parent: UnsafeMutablePointer<GtkWindow>?, title: String, original: AudioFormat?,
                    chosen: @escaping Chosen) {
        let export = ExportChooser(over: parent, title: title, original: original, chosen: chosen)
        shown[ObjectIdentifier(export)] = export
        ButtonNames.nameAll(in: export.dialog)
        gtk_window_present(hark_window(export.dialog))
    }

    private init(over parent: UnsafeMutablePointer<GtkWindow>?, title: String, original: AudioFormat?,
                 chosen: @escaping Chosen) {
        dialog = hark_file_chooser_dialog_new(tr("Export Message"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                              tr("_Cancel"), tr("_Export"))
        gtk_window_set_modal(hark_window(dialog), 1)
        let folder = g_file_new_for_path(Self.lastFolder ?? String(cString: g_get_home_dir()))
        _ = gtk_file_chooser_set_current_folder(chooser, folder, nil)
        g_object_unref(UnsafeMutableRawPointer(folder))
        for format in AudioFormat.allCases {
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, format.choiceName(original: original))
            format.fileExtensions.forEach { gtk_file_filter_add_suffix(filter, $0) }
            gtk_file_chooser_add_filter(chooser, filter)
            filters.append((format, filter))
            g_object_unref(UnsafeMutableRawPointer(filter))  // the chooser holds its own reference
        }
        show(Self.lastFormat)
        gtk_file_chooser_set_current_name(chooser, ExportName.forTitle(title, fileExtension: Self.lastFormat.fileExtension))
        followChanges()
        Signal.connectInt(UnsafeMutableRawPointer(dialog), "response") { [weak self] response in
            guard let self else { return }
            if response == Int(GTK_RESPONSE_ACCEPT.rawValue) { self.accept(chosen) }
            gtk_window_destroy(hark_window(self.dialog))
            Self.shown[ObjectIdentifier(self)] = nil
        }
    }

    /// The format the list shows.
    private var listed: AudioFormat {
        guard let current = gtk_file_chooser_get_filter(chooser) else { return Self.lastFormat }
        return filters.first { $0.filter == current }?.format ?? Self.lastFormat
    }

    private func show(_ format: AudioFormat) {
        guard let filter = filters.first(where: { $0.format == format })?.filter, !isListed(filter) else { return }
        following = true
        gtk_file_chooser_set_filter(chooser, filter)
        following = false
    }

    private func isListed(_ filter: OpaquePointer) -> Bool {
        gtk_file_chooser_get_filter(chooser) == filter
    }

    private var typedName: String {
        guard let name = gtk_file_chooser_get_current_name(chooser) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    private func followChanges() {
        Signal.connectPointer(UnsafeMutableRawPointer(chooser), "notify::filter") { [weak self] _ in
            guard let self, !self.following else { return }
            let name = self.typedName
            let renamed = self.listed.name(name)
            guard !name.isEmpty, renamed != name else { return }
            self.following = true
            gtk_file_chooser_set_current_name(self.chooser, renamed)
            self.following = false
        }
        nameField = Widget.descendants(of: dialog).first { Widget.typeName($0) == "GtkFileChooserEntry" }
        guard let nameField else { return }
        Signal.connect(UnsafeMutableRawPointer(nameField), "changed") { [weak self] in
            guard let self, !self.following else { return }
            self.dropSuggestedExtension()
            guard let typed = AudioFormat(pathExtensionOf: self.typedName) else { return }
            self.show(typed)
        }
    }

    /// Typing "take three.wav" over the selected "Voice message" of "Voice
    /// message.ogg" leaves "take three.wav.ogg": the suggested extension goes,
    /// in place, so the cursor stays where the user types.
    private func dropSuggestedExtension() {
        guard let nameField, let text = gtk_editable_get_text(OpaquePointer(nameField)).map({ String(cString: $0) }),
              let typed = AudioFormat.typedOverSuggested(text) else { return }
        following = true
        gtk_editable_delete_text(OpaquePointer(nameField), Int32(typed.unicodeScalars.count), -1)
        following = false
    }

    private func accept(_ chosen: Chosen) {
        guard let file = gtk_file_chooser_get_file(chooser) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let path = FileChoosers.path(of: UnsafeMutableRawPointer(file)) else { return }
        let format = AudioFormat.forTypedName(path, selected: listed)
        Self.lastFolder = (path as NSString).deletingLastPathComponent
        Self.lastFormat = format
        let matching = format.name(path)
        chosen(matching, format, matching == path)
    }
}
