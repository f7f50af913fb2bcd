import CAdwaita
import Foundation
import CGLib
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// Right after Stop, the new message's title offered for typing, where the
/// hint beside Record was, as GNOME Sound Recorder asks for a name: the
/// field has the keyboard, its text selected, so typing replaces it. Enter
/// keeps what was typed; Esc, or carrying on (recording again, clicking
/// elsewhere), keeps the title it has. It never holds the next recording up:
/// Record stays where it is.
@MainActor
final class TakeNaming {
    let widget: UnsafeMutablePointer<GtkWidget>
    let entry: UnsafeMutablePointer<GtkWidget>
    private let caption: UnsafeMutablePointer<GtkWidget>
    /// The message offered for naming, while it is.
    private(set) var messageID: String?
    /// Its title now: what Esc keeps.
    private var offeredTitle = ""
    /// Where the keyboard was before the field took it (held), and goes back to.
    private var focusBefore: UnsafeMutablePointer<GtkWidget>?
    /// A name typed and kept with Enter: the window renames the message.
    var onName: @MainActor (_ id: String, _ title: String) -> Void = { _, _ in }
    /// Shown or gone: the composer lays its row out again.
    var onChange: @MainActor () -> Void = {}

    /// What the field is for, over it (and to a screen reader).
    static func captionText(keeping title: String) -> String {
        // TRANSLATORS: over the field offered for the title of a message just recorded; {title} is its title now.
        tr("Type a name for the new message and press Enter, or Esc to keep “{title}”.", ["title": title])
    }

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        caption = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(caption), 0)
        gtk_label_set_wrap(hark_label(caption), 1)
        gtk_widget_add_css_class(caption, "caption")
        gtk_widget_add_css_class(caption, "dim-label")
        gtk_box_append(hark_box(widget), caption)
        entry = gtk_entry_new()!
        gtk_editable_set_width_chars(OpaquePointer(entry), 8)
        hark_accessible_set_label(UnsafeMutableRawPointer(entry), tr("Title of the new message"))
        gtk_box_append(hark_box(widget), entry)
        gtk_widget_set_visible(widget, 0)

        Signal.connect(UnsafeMutableRawPointer(entry), "activate") { [weak self] in self?.end(keeping: true) }
        let keys = gtk_event_controller_key_new()!
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _, _ in
            guard let self, keyval == UInt32(GDK_KEY_Escape), self.isOffered else { return false }
            self.end(keeping: false)
            return true
        }
        gtk_widget_add_controller(entry, keys)
        // Clicking (or tabbing) elsewhere keeps the title it has.
        let focus = gtk_event_controller_focus_new()!
        Signal.connect(UnsafeMutableRawPointer(focus), "leave") { [weak self] in
            guard let self, self.isOffered, !self.ending else { return }
            self.end(keeping: false, refocus: false)
        }
        gtk_widget_add_controller(entry, focus)
    }

    var isOffered: Bool { messageID != nil }

    /// The text in the field.
    var text: String {
        gtk_editable_get_text(OpaquePointer(entry)).map { String(cString: $0) } ?? ""
    }

    /// Offers `message`'s title for typing, with the keyboard in the field.
    func offer(_ message: Message) {
        messageID = message.id
        offeredTitle = message.title
        gtk_editable_set_text(OpaquePointer(entry), message.title)
        let caption = Self.captionText(keeping: message.title)
        gtk_label_set_text(hark_label(self.caption), caption)
        hark_accessible_set_description(UnsafeMutableRawPointer(entry), caption)
        gtk_widget_set_visible(widget, 1)
        onChange()
        if let focusBefore { g_object_unref(UnsafeMutableRawPointer(focusBefore)) }
        focusBefore = gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }
        if let focusBefore, focusBefore == entry || gtk_widget_is_ancestor(focusBefore, entry) != 0 { self.focusBefore = nil }
        if let focusBefore { g_object_ref(UnsafeMutableRawPointer(focusBefore)) }
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(OpaquePointer(entry), 0, -1)
    }

    /// The offered message was retitled meanwhile (its transcript named it):
    /// the caption says the title Esc keeps now, and a field the user has not
    /// typed in shows it.
    func follow(_ message: Message) {
        guard message.id == messageID, message.title != offeredTitle else { return }
        let untouched = text == offeredTitle
        offeredTitle = message.title
        let caption = Self.captionText(keeping: message.title)
        gtk_label_set_text(hark_label(self.caption), caption)
        hark_accessible_set_description(UnsafeMutableRawPointer(entry), caption)
        guard untouched else { return }
        gtk_editable_set_text(OpaquePointer(entry), message.title)
        if hasFocus { gtk_editable_select_region(OpaquePointer(entry), 0, -1) }
    }

    /// Carrying on (a new recording): the title stays as it is.
    func dismiss() {
        guard isOffered else { return }
        end(keeping: false, refocus: hasFocus)
    }

    /// Whether the keyboard is in the field.
    var hasFocus: Bool {
        gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }.map { $0 == entry || gtk_widget_is_ancestor($0, entry) != 0 } ?? false
    }

    private var ending = false

    /// Ends naming: with Enter, a name typed (not blank, not the same) is kept.
    private func end(keeping: Bool, refocus: Bool = true) {
        guard let id = messageID, !ending else { return }
        ending = true
        defer { ending = false }
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        messageID = nil
        // The keyboard goes back where it was (nowhere: Space plays the newest)
        // before the field goes (GTK would move it on to the next widget).
        let before = focusBefore
        focusBefore = nil
        defer { if let before { g_object_unref(UnsafeMutableRawPointer(before)) } }
        if refocus, let root = gtk_widget_get_root(widget) {
            if let before, gtk_widget_get_root(before) == root, gtk_widget_get_mapped(before) != 0 {
                gtk_widget_grab_focus(before)
            } else {
                gtk_root_set_focus(root, nil)
            }
        }
        gtk_widget_set_visible(widget, 0)
        onChange()
        if keeping, !typed.isEmpty, typed != offeredTitle { onName(id, typed) }
    }
}
