import CAdwaita
import CGLib
import CGtk
import Conversations
import Foundation
import GLibSupport
import GtkSupport
import Localization
import MessageStore

/// "New Conversation": a search field over the people it offers. A whole
/// Matrix ID is offered as typed, at once; other words search the server's
/// user directory once typing pauses (a spinner turns meanwhile; the window
/// never waits). Enter starts the conversation with the chosen person (the
/// first, unless the arrows chose another), creating the direct chat or
/// finding the one there is; what went wrong is said in a sentence.
@MainActor
final class NewConversationDialog {
    let window: UnsafeMutablePointer<GtkWindow>
    /// The search field: typing searches, Enter starts, ↓ goes to the people.
    let entry = gtk_search_entry_new()!
    /// The people offered, one row each (their name over their Matrix ID).
    let list = gtk_list_box_new()!
    /// Turns while the directory is asked, or the chat made.
    private let spinner = gtk_spinner_new()!
    /// What to type, what was not found, what went wrong: a sentence.
    private let status = SentenceLabel.make("")
    private let session: ConversationSession
    private let lifetime: WidgetLifetime
    /// The direct chat's room, once found or made: the window opens it.
    private let open: @MainActor (String) -> Void
    /// The people offered, in the order shown, and each one's row.
    private var offered: [(person: Person, row: UnsafeMutablePointer<GtkWidget>)] = []
    /// The query the rows answer (the text may be ahead of it while typing pauses).
    private var shownQuery = PeopleQuery.empty
    /// Counts the searches: an answer to an older one is dropped.
    private var searches = 0
    private(set) var isStarting = false
    /// Typing pauses this long before the directory is searched.
    static let searchDelayMilliseconds: UInt32 = 300

    init(over parent: UnsafeMutablePointer<GtkWindow>?, session: ConversationSession,
         open: @escaping @MainActor (String) -> Void) {
        self.session = session
        self.open = open
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        window = DialogWindow.make(title: tr("New Conversation"), over: parent, width: 420, content: content)
        lifetime = WidgetLifetime(of: Widget.widget(window))

        let field = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_hexpand(entry, 1)
        gtk_search_entry_set_search_delay(OpaquePointer(entry), Self.searchDelayMilliseconds)
        hark_object_set_string(UnsafeMutableRawPointer(entry), "placeholder-text", tr("Name or Matrix ID"))
        hark_accessible_set_label(UnsafeMutableRawPointer(entry), tr("Name or Matrix ID"))
        gtk_box_append(hark_box(field), entry)
        hark_accessible_set_label(UnsafeMutableRawPointer(spinner), tr("Searching…"))
        gtk_widget_set_visible(spinner, 0)
        gtk_box_append(hark_box(field), spinner)
        gtk_box_append(hark_box(content), field)

        gtk_box_append(hark_box(content), status)

        gtk_widget_add_css_class(list, "boxed-list")
        gtk_list_box_set_selection_mode(OpaquePointer(list), GTK_SELECTION_SINGLE)
        hark_accessible_set_label(UnsafeMutableRawPointer(list), tr("People"))
        gtk_box_append(hark_box(content), ScrolledList.wrap(list))

        Signal.connect(UnsafeMutableRawPointer(entry), "search-changed") { [weak self] in self?.textChanged() }
        Signal.connect(UnsafeMutableRawPointer(entry), "activate") { [weak self] in self?.startChosen() }
        // Escape in the field closes the dialog, as it does elsewhere in it.
        Signal.connect(UnsafeMutableRawPointer(entry), "stop-search") { [weak self] in self?.close() }
        Signal.connectPointer(UnsafeMutableRawPointer(list), "row-activated") { [weak self] row in
            guard let self, let row, let person = self.offered.first(where: { UnsafeMutableRawPointer($0.row) == row })?.person
            else { return }
            self.start(person)
        }
        // ↓ from the field goes to the people, where the arrows move and Enter starts.
        let keys = gtk_event_controller_key_new()!
        Signal.connectKey(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] keyval, _, _ in
            guard let self, keyval == UInt32(GDK_KEY_Down) || keyval == UInt32(GDK_KEY_KP_Down),
                  let first = self.offered.first?.row else { return false }
            gtk_widget_grab_focus(first)
            return true
        }
        gtk_widget_add_controller(entry, keys)
        showStatus(Self.hint)
    }

    static var hint: String {
        tr("Search your server’s directory by name, or type someone’s Matrix ID (@name:server.example).")
    }

    /// False once GTK destroyed the dialog (closed): its widgets are gone.
    var isOpen: Bool { lifetime.isAlive }

    func present() {
        gtk_window_present(window)
        gtk_widget_grab_focus(entry)
    }

    func close() {
        gtk_window_close(window)
    }

    var text: String {
        gtk_editable_get_text(OpaquePointer(entry)).map { String(cString: $0) } ?? ""
    }

    // MARK: Searching

    /// The text settled: a Matrix ID is offered now, and the directory asked (for its name, or for the words).
    private func textChanged() {
        guard !isStarting else { return }
        let query = PeopleQuery(text)
        searches += 1
        show(query.offered(found: [], me: session.userID), for: query)
        guard let term = query.searchTerm else {
            setSearching(false)
            return showStatus(Self.hint)
        }
        if case .userID(let userID) = query, userID == session.userID {
            setSearching(false)
            return showStatus(ConversationError.notAUser(userID).description, isProblem: true)
        }
        showStatus(nil)
        setSearching(true)
        let search = searches
        Task { [weak self, session] in
            let result: Result<[Person], ConversationError>
            do throws(ConversationError) { result = .success(try await session.searchPeople(term)) } catch {
                result = .failure(error)
            }
            guard let self, self.lifetime.isAlive, search == self.searches else { return }
            self.setSearching(false)
            switch result {
            case .success(let found):
                self.show(query.offered(found: found, me: self.session.userID), for: query)
                if self.offered.isEmpty {
                    self.showStatus(tr("No one found for “{text}”.", ["text": ReceivedText.shown(term)]))
                }
            case .failure(let error):
                self.showStatus(error.description, isProblem: true)
            }
        }
    }

    /// Shows `people` as the answer to `query`, the first chosen.
    private func show(_ people: [Person], for query: PeopleQuery) {
        shownQuery = query
        for (_, row) in offered { gtk_list_box_remove(OpaquePointer(list), row) }
        offered = people.map { ($0, Self.row(for: $0)) }
        for (_, row) in offered { gtk_list_box_append(OpaquePointer(list), row) }
        if let first = offered.first?.row {
            gtk_list_box_select_row(OpaquePointer(list), UnsafeMutableRawPointer(first).assumingMemoryBound(to: GtkListBoxRow.self))
        }
    }

    private static func row(for person: Person) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        let preferencesRow = UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self)
        // A name is the network's text, not markup ("Tom & Jerry").
        adw_preferences_row_set_use_markup(preferencesRow, 0)
        adw_preferences_row_set_title(preferencesRow, person.title)
        if let subtitle = person.subtitle {
            adw_action_row_set_subtitle(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwActionRow.self), subtitle)
        }
        gtk_list_box_row_set_activatable(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkListBoxRow.self), 1)
        hark_accessible_set_label(UnsafeMutableRawPointer(row), person.subtitle.map {
            tr("{name}, {detail}", ["name": person.title, "detail": $0])
        } ?? person.title)
        return row
    }

    private func setSearching(_ searching: Bool) {
        gtk_widget_set_visible(spinner, searching ? 1 : 0)
        if searching { gtk_spinner_start(OpaquePointer(spinner)) } else { gtk_spinner_stop(OpaquePointer(spinner)) }
    }

    /// The sentence under the field; the field's description too, so a screen reader hears it there.
    private func showStatus(_ text: String?, isProblem: Bool = false) {
        SentenceLabel.set(status, text ?? "")
        gtk_widget_set_visible(status, text == nil ? 0 : 1)
        if isProblem { gtk_widget_add_css_class(status, "error") } else { gtk_widget_remove_css_class(status, "error") }
        hark_accessible_set_description(UnsafeMutableRawPointer(entry), text ?? "")
    }

    // MARK: Starting

    /// Enter in the field: the chosen person, else the Matrix ID typed; words
    /// not searched yet are searched now.
    private func startChosen() {
        guard !isStarting else { return }
        let query = PeopleQuery(text)
        if query == shownQuery, !offered.isEmpty {
            let chosen = gtk_list_box_get_selected_row(OpaquePointer(list)).map { UnsafeMutableRawPointer($0) }
            start(offered.first(where: { UnsafeMutableRawPointer($0.row) == chosen })?.person ?? offered[0].person)
        } else if case .userID(let userID) = query, userID != session.userID {
            start(Person(userID: userID))
        } else {
            textChanged()
        }
    }

    /// Finds or makes the direct chat with `person`; once there, the dialog
    /// closes and the window opens it.
    func start(_ person: Person) {
        guard !isStarting else { return }
        isStarting = true
        searches += 1  // a search still out is no longer wanted
        setSearching(true)
        showStatus(tr("Opening the conversation with {name}…", ["name": person.title]))
        gtk_editable_set_editable(OpaquePointer(entry), 0)
        gtk_widget_set_sensitive(list, 0)
        Task { [weak self, session] in
            let result: Result<String, ConversationError>
            do throws(ConversationError) { result = .success(try await session.directChat(with: person.userID)) } catch {
                result = .failure(error)
            }
            // Closed meanwhile: the chat is in the sidebar, and the window stays where the user went.
            guard let self, self.lifetime.isAlive else { return }
            self.isStarting = false
            self.setSearching(false)
            gtk_editable_set_editable(OpaquePointer(self.entry), 1)
            gtk_widget_set_sensitive(self.list, 1)
            switch result {
            case .success(let roomID):
                self.close()
                self.open(roomID)
            case .failure(let error):
                self.showStatus(error.description, isProblem: true)
                gtk_widget_grab_focus(self.entry)
            }
        }
    }
}
