import AudioEngine
import CAdwaita
import CGLib
import CGtk
import Foundation
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// A deleted message that can still be undone (for `undoSeconds`, whether or
/// not its toast is still up).
@MainActor
final class PendingDeletion {
    let message: Message
    /// A reference of our own: the overlay takes the toast's first one and
    /// drops it when the toast goes (Esc, its timeout, another toast), while
    /// Ctrl+Z may still dismiss it afterwards.
    private let toastReference: ObjectRef
    var toast: OpaquePointer { OpaquePointer(toastReference.pointer) }
    var undone = false
    /// Where Undo puts the message back instead of the history (a draft
    /// back in the composer); false when it cannot.
    var restore: (@MainActor () -> Bool)?
    /// Where its row was in the history's viewport, if on screen: an undo puts it back there.
    var place: Double?
    /// Purges the message when the grace period ends.
    var expiry: Source?

    init(message: Message, toast: OpaquePointer) {
        self.message = message
        toastReference = ObjectRef(retaining: UnsafeMutableRawPointer(toast))
    }
}

/// What the window does to messages: delete with Undo, rename, export, import.
extension MainWindow {
    /// How long a deletion can be undone (the toast's time on screen).
    static let undoSeconds: UInt32 = 10

    /// Purges what this window deleted and can still undo (at quit);
    /// deletions made elsewhere (`hark delete`) stay undoable.
    func purgePendingDeletions() {
        for deletion in pendingDeletions where !deletion.undone {
            deletion.expiry?.remove()
            try? store?.purge(deletion.message.id)
        }
        pendingDeletions.removeAll()
    }

    /// Deletes softly with an Undo toast; the message is purged (file and
    /// all) only when its grace period ends without Undo (the toast's button
    /// or Ctrl+Z), or at quit. Closing the toast early (Esc, another toast
    /// taking its place) does not shorten it.
    func delete(_ message: Message, saying text: String? = nil, restore: (@MainActor () -> Bool)? = nil) {
        guard let store, let history else { return }
        if playback?.currentID == message.id { playback?.stop() }
        do { try store.delete(message.id) } catch {
            toast(tr("“{title}” could not be deleted: {reason}", ["title": message.title, "reason": "\(error)"]))
            return
        }
        let place = history.place(of: message.id)
        history.apply(.removed(message.id))
        let said = text ?? tr("“{title}” deleted", ["title": message.title])
        let (toast, _) = newToast(said)
        adw_toast_set_button_label(toast, tr("_Undo"))
        adw_toast_set_priority(toast, ADW_TOAST_PRIORITY_HIGH)
        adw_toast_set_timeout(toast, Self.undoSeconds)
        let deletion = PendingDeletion(message: message, toast: toast)
        deletion.place = place
        deletion.restore = restore
        pendingDeletions.append(deletion)
        Signal.connect(UnsafeMutableRawPointer(toast), "button-clicked") { [weak self] in self?.undo(deletion) }
        deletion.expiry = MainLoop.timeout(milliseconds: Self.undoSeconds * 1000) { [weak self, weak deletion] in
            guard let deletion else { return false }
            deletion.expiry = nil
            self?.pendingDeletions.removeAll { $0 === deletion }
            if !deletion.undone { try? store.purge(message.id) }
            return false
        }
        showToast(toast, said)
    }

    /// Ctrl+Z: brings back the last message deleted that can still be undone.
    func undoLastDeletion() {
        guard let deletion = pendingDeletions.last(where: { !$0.undone }) else { return }
        undo(deletion)
        adw_toast_dismiss(deletion.toast)
    }

    private func undo(_ deletion: PendingDeletion) {
        guard !deletion.undone else { return }
        deletion.undone = true
        deletion.expiry?.remove()
        deletion.expiry = nil
        pendingDeletions.removeAll { $0 === deletion }
        do { try store?.undelete(deletion.message.id) } catch {
            toast(tr("“{title}” could not be restored: {reason}", ["title": deletion.message.title, "reason": "\(error)"]), seconds: Self.problemSeconds)
            return
        }
        if deletion.restore?() != true { history?.apply(.restored(deletion.message.id, place: deletion.place)) }
        // What waited for it while it was deleted goes on: its transcript
        // (the queue passes over deleted messages, and nothing else would
        // wake it) and its sends.
        transcription?.wake()
        conversations?.restored(deletion.message.id)
    }

    func askToRename(_ message: Message) {
        MessageDialogs.rename(over: window, current: message.title) { [weak self] title in
            self?.rename(message.id, to: title)
        }
    }

    func rename(_ id: String, to title: String) {
        do { try store?.rename(id, to: title) } catch {
            toast(tr("The message could not be renamed: {reason}", ["reason": "\(error)"]), seconds: Self.problemSeconds)
            return
        }
        history?.apply(.changed(id))
    }

    func askToExport(_ message: Message) {
        // "(original)" goes beside the format the audio is, whatever its file's name says.
        let original = store.map { AudioContent(path: $0.audioPath(of: message)).format } ?? nil
        ExportChooser.ask(over: window, title: message.title, original: original) { [weak self] path, format, confirmed in
            guard let self, let store = self.store else { return }
            let source: String
            do { source = try store.exportSource(message.id) } catch {
                self.toast(tr("“{title}” could not be exported: {reason}", ["title": message.title, "reason": "\(error)"]), seconds: Self.problemSeconds)
                return
            }
            // The chooser asked before replacing the file it showed; a name
            // whose extension was changed to match the format never replaces.
            self.exporter?.export(source: source, title: message.title, to: confirmed ? path : Exporter.unused(path),
                                  format: format, overwrite: confirmed)
        }
    }

    /// Puts a readable copy of the message, named after its title, on the
    /// clipboard as a file: paste works in Files, chat apps and mail.
    func copy(_ message: Message) {
        do {
            let path = try store?.outgoingCopy(message.id)
            if let path { FileTransfer.copy(path, from: Widget.widget(window)) }
            toast(tr("“{title}” copied", ["title": message.title]))
        } catch {
            toast(tr("“{title}” could not be copied: {reason}", ["title": message.title, "reason": "\(error)"]), seconds: Self.problemSeconds)
        }
    }

    func askToImport() {
        FileChoosers.chooseAudioFiles(over: window) { [weak self] paths in self?.importer?.enqueue(paths) }
    }

    /// Files dropped on the window are imported.
    func installDropTarget() {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        Signal.connectDrop(UnsafeMutableRawPointer(target), "drop") { [weak self] value, _, _ in
            guard let self, let value,
                  let list = g_value_get_boxed(value.assumingMemoryBound(to: GValue.self)) else { return false }
            let paths = Self.paths(in: OpaquePointer(list))
            if paths.isEmpty {
                self.toast(tr("Only files on this computer can be imported."))
                return false
            }
            self.importer?.enqueue(paths)
            return true
        }
        gtk_widget_add_css_class(toasts, "hark-drop-area")
        gtk_widget_add_controller(toasts, target)
    }

    private static func paths(in fileList: OpaquePointer) -> [String] {
        var paths: [String] = []
        let files = gdk_file_list_get_files(fileList)
        var node = files
        while let current = node {
            if let file = current.pointee.data, let path = FileChoosers.path(of: file) { paths.append(path) }
            node = current.pointee.next
        }
        g_slist_free(files)
        return paths
    }
}
