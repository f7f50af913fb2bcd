import CAdwaita
import CGLib
import CGtk
import Localization

/// The Keyboard Shortcuts window (Ctrl+?), GTK's help overlay.
@MainActor
enum ShortcutsWindow {
    /// Every shortcut the main window answers, grouped as the window shows them.
    static var groups: [(title: String, shortcuts: [(accelerator: String, title: String)])] { [
        (trc("keyboard shortcuts group", "Recording"), [
            ("<Control>r", tr("Record, or stop and save")),
            ("Escape", tr("Cancel the recording")),
        ]),
        (trc("keyboard shortcuts group", "History"), [
            ("Up Down", tr("Move between messages")),
            ("<Control>Home <Control>End", tr("Go to the first or the last message")),
            ("<Control>f", tr("Search by title or day")),
            ("<Control>i", tr("Import audio files")),
            ("<Control>z", tr("Undo the last deletion")),
        ]),
        (tr("The Focused Message"), [
            ("space Return", tr("Play or pause it")),
            ("Left Right", tr("Seek 5 seconds back or forward")),
            ("Home End", tr("Go to its start or its end")),
            ("Menu <Shift>F10", tr("Open its menu")),
            ("F2", tr("Rename it")),
            ("Delete", tr("Delete it")),
            ("<Control>c", tr("Copy it as a file")),
            ("<Control>e", tr("Export it")),
        ]),
        (tr("General"), [
            ("<Control>n", tr("Start a new conversation")),
            ("<Control>question", tr("Keyboard shortcuts")),
            ("<Control>w", tr("Close the window")),
            ("<Control>q", tr("Quit")),
        ]),
    ] }

    /// Builds the window and makes it `window`'s help overlay, which adds
    /// the `win.show-help-overlay` action.
    static func install(on window: UnsafeMutablePointer<GtkWindow>) {
        let builder = gtk_builder_new_from_string(interface, -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let overlay = gtk_builder_get_object(builder, "help_overlay") else { return }
        gtk_application_window_set_help_overlay(
            UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkApplicationWindow.self),
            OpaquePointer(overlay))
    }

    private static var interface: String {
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"help_overlay\"><property name=\"modal\">1</property>"
        xml += "<child><object class=\"GtkShortcutsSection\"><property name=\"section-name\">shortcuts</property>"
        for group in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escaped(group.title))</property>"
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\">"
                    + "<property name=\"accelerator\">\(escaped(shortcut.accelerator))</property>"
                    + "<property name=\"title\">\(escaped(shortcut.title))</property></object></child>"
            }
            xml += "</object></child>"
        }
        return xml + "</object></child></object></interface>"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
