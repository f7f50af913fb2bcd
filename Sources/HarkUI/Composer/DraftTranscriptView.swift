import CAdwaita
import CGtk
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// Under a draft, with transcription on: the take's transcript as soon as
/// the engine made it ("Transcribing…" meanwhile), and "Send With
/// Transcript", a switch remembered in the store's settings, off until the
/// user turns it on: on, the words go inside the voice event.
@MainActor
final class DraftTranscriptView {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The words, or the transcript's state in words.
    let words: UnsafeMutablePointer<GtkWidget>
    let sendSwitch: UnsafeMutablePointer<GtkWidget>
    private let store: MessageStore
    /// The draft's message shown, nil when none is (or transcription is off).
    private(set) var messageID: String?
    /// Send was pressed with the switch on before the words came: it goes once they do.
    var sendWhenTranscribed: (@MainActor () -> Void)?

    static var switchText: String { tr("Send With Transcript") }

    init(store: MessageStore) {
        self.store = store
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_widget_add_css_class(widget, "hark-draft-transcript")
        words = gtk_label_new("")!
        gtk_label_set_xalign(hark_label(words), 0)
        gtk_label_set_wrap(hark_label(words), 1)
        gtk_label_set_wrap_mode(hark_label(words), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_lines(hark_label(words), 3)
        gtk_label_set_ellipsize(hark_label(words), PANGO_ELLIPSIZE_END)
        gtk_box_append(hark_box(widget), words)
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        let label = gtk_label_new(Self.switchText)!
        gtk_widget_set_hexpand(label, 1)
        gtk_label_set_xalign(hark_label(label), 1)
        gtk_widget_add_css_class(label, "dim-label")
        sendSwitch = gtk_switch_new()!
        gtk_widget_set_valign(sendSwitch, GTK_ALIGN_CENTER)
        hark_accessible_set_label(UnsafeMutableRawPointer(sendSwitch), Self.switchText)
        // TRANSLATORS: the tooltip of the draft's "Send With Transcript" switch.
        gtk_widget_set_tooltip_text(sendSwitch, tr("The words go inside the voice message, for people who read rather than listen"))
        gtk_box_append(hark_box(row), label)
        gtk_box_append(hark_box(row), sendSwitch)
        gtk_box_append(hark_box(widget), row)
        gtk_widget_set_visible(widget, 0)
        Signal.connectPointer(UnsafeMutableRawPointer(sendSwitch), "notify::active") { [weak self] _ in
            guard let self else { return }
            let on = gtk_switch_get_active(OpaquePointer(self.sendSwitch)) != 0
            if on != self.store.sendsWithTranscript {
                try? self.store.setSetting(MessageStore.sendWithTranscriptSetting, on ? "on" : nil)
            }
            if !on, let send = self.sendWhenTranscribed {  // no longer waiting for the words: it goes now
                self.sendWhenTranscribed = nil
                send()
            }
        }
    }

    /// Shows the draft `id`'s transcript as it is now (nil: no draft);
    /// nothing while transcription is off, or its ends are still being cut.
    func show(_ id: String?, trimming: Bool) {
        guard let id, let message = try? store.message(id),
              store.transcribesNewMessages || message.transcriptState == .done else {
            messageID = nil
            gtk_widget_set_visible(widget, 0)
            return
        }
        messageID = id
        if message.transcriptState == .done, let text = message.transcript, !text.isEmpty {
            gtk_label_set_text(hark_label(words), text)
            gtk_widget_remove_css_class(words, "dim-label")
        } else if sendWhenTranscribed != nil {
            // TRANSLATORS: under a draft sent with its transcript before the transcript was made.
            gtk_label_set_text(hark_label(words), tr("Sending once transcribed…"))
            gtk_widget_add_css_class(words, "dim-label")
        } else {
            let state = trimming || message.transcriptState == .none ? .queued : message.transcriptState
            gtk_label_set_text(hark_label(words), RowDescription.transcriptState(state, transcriptionOn: true) ?? "")
            gtk_widget_add_css_class(words, "dim-label")
        }
        gtk_switch_set_active(OpaquePointer(sendSwitch), store.sendsWithTranscript ? 1 : 0)
        gtk_widget_set_visible(widget, 1)
    }
}
