import CAdwaita
import CGLib
import CGtk
import Conversations
import GLibSupport
import GtkSupport
import Levels
import Localization
import MessageStore

/// A row's Matrix side: who sent it, how its sending stands.
extension MessageRow {
    /// Who sent a received message; how a sent one's sending stands.
    func showConversation(_ message: Message) {
        let from = store.matrix.senderName(of: message)
        gtk_label_set_text(hark_label(sender), from ?? "")
        gtk_widget_set_visible(sender, from == nil ? 0 : 1)
        gtk_widget_set_visible(unverifiedMark, message.unverifiedDevice ? 1 : 0)
        let state = message.origin == .received ? nil : (try? store.matrix.sendState(of: message.id)) ?? nil
        sendState = state
        // Recorded into a room and never sent there (discarded, then brought
        // back; or saved while signed out): it waits for a Send.
        let unsent = state == nil && message.origin != .received && message.roomID != nil
        // Why it was not sent: the server's refusal, or what kept it from the server all that time.
        let failed = state == .failed ? ((try? store.matrix.sends(of: message.id)) ?? []).first { $0.state == .failed } : nil
        let text = failed?.expired == true ? Self.expiredText : unsent ? Self.unsentText : state.map(Self.sendStateText)
        gtk_label_set_text(hark_label(sendStatus), text ?? "")
        let tooltip: String? = unsent ? Self.unsentTooltip : failed?.lastError
        gtk_widget_set_tooltip_text(sendStatus, tooltip)
        gtk_widget_set_visible(sendStatus, text == nil ? 0 : 1)
        gtk_widget_set_visible(retryButton, state == .failed || unsent ? 1 : 0)
        if state == .failed { gtk_widget_add_css_class(sendStatus, "error") } else { gtk_widget_remove_css_class(sendStatus, "error") }
        if state == .sending || unsent {
            gtk_widget_add_css_class(sendStatus, "dim-label")
        } else {
            gtk_widget_remove_css_class(sendStatus, "dim-label")
        }
        gtk_button_set_label(hark_button(retryButton), unsent ? tr("_Send") : tr("_Retry"))
        gtk_widget_set_tooltip_text(retryButton, unsent ? tr("Send this message to the room") : tr("Send this message again"))
        ButtonNames.name(retryButton, unsent ? tr("Send {title}", ["title": message.title])
                                             : tr("Send {title} again", ["title": message.title]))
    }

    // TRANSLATORS: beside a message recorded into a room and never sent there; a Send button follows.
    static var unsentText: String { tr("Not sent yet") }
    static var unsentTooltip: String { tr("Recorded in this room but never sent: Send sends it") }

    static func sendStateText(_ state: SendState) -> String {
        switch state {
        // TRANSLATORS: how the sending of a message to a room stands, beside it: "Sending…", "Sent", "Not sent".
        case .sending: return tr("Sending…")
        case .sent: return tr("Sent")
        case .failed: return tr("Not sent")
        }
    }

    /// "Not sent" for a send that waited unsent as long as the outbox tries (a day).
    static var expiredText: String {
        let hours = Int(RetryPolicy.defaultUnsentLimit / 3600)
        // TRANSLATORS: beside a message the server could not be reached for during that long; Retry follows.
        return trn("Not sent in {count} hour", "Not sent in {count} hours", hours)
    }

    /// The texts the row shows now, which its accessible name says: sender, send state.
    var shownSender: String? { gtk_widget_get_visible(sender) != 0 ? Self.text(of: sender) : nil }
    var shownSendState: String? { gtk_widget_get_visible(sendStatus) != 0 ? Self.text(of: sendStatus) : nil }
    static func text(of label: UnsafeMutablePointer<GtkWidget>) -> String {
        gtk_label_get_text(hark_label(label)).map { String(cString: $0) } ?? ""
    }
}
