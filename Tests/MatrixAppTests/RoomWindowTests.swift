import AudioEngine
import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Foundation
import GLibSupport
import GtkSupport
import HarkModel
import HarkTestSupport
import Levels
@testable import HarkUI
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// The window's rooms against a real Synapse, with Bob on the other side:
/// an invitation accepted from the sidebar, Bob's voice message arriving
/// (counted, named, notified while the window is in the background, seen once
/// the room is viewed), a take recorded into the room sent by Stop, Send to…,
/// Delete for Everyone, and an encrypted room that nothing is sent into.
final class RoomWindowTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?
    static let password = SharedHomeserver.password
    static let alice = "@alice:localhost"

    override class func setUp() {
        super.setUp()
        server = SharedHomeserver.start(users: ["alice", "bob"])
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    var homeserver: String {
        get throws {
            guard let server = Self.server else { throw SynapseFailed(output: "no homeserver (see the log above)") }
            return server.url
        }
    }

    /// Alice signed in in `window`, notifications recorded rather than shown.
    @MainActor
    static func signIn(_ window: MainWindow, _ homeserver: String) throws -> WindowConversations {
        let conversations = try XCTUnwrap(window.conversations)
        conversations.notify = { _ in }
        XCTAssertNil(try awaitOnLoop { await conversations.account.signIn(server: homeserver, user: "alice", password: password) })
        return conversations
    }

    @MainActor
    static func bob(_ homeserver: String) throws -> MatrixClient {
        let bob = MatrixClient(homeserver: homeserver)
        try awaitOnLoop { try await bob.login(user: "bob", password: password) }
        return bob
    }


    @MainActor
    static func sendVoice(from bob: MatrixClient, to roomID: String, path: String) throws -> String {
        let audio = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let analysis = try Analyzer.analyze(path: path)
        let uri = try awaitOnLoop { try await bob.upload(audio, contentType: "audio/ogg", fileName: "Hello.ogg") }
        let message = OutgoingVoiceMessage(title: "Hello", fileName: "Hello.ogg", size: audio.count,
                                           durationMilliseconds: Int((analysis.duration * 1000).rounded()),
                                           levels: analysis.levels)
        return try awaitOnLoop {
            try await bob.sendVoiceMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(), message: message,
                                           contentURI: uri)
        }
    }

    /// Bob's syncs until `found` says his room has what was awaited.
    @MainActor
    static func bobSees(_ bob: MatrixClient, _ roomID: String, _ found: (JoinedRoomEvents) -> Bool) throws -> Bool {
        var since: String?
        for _ in 0..<20 {
            let from = since
            let response = try awaitOnLoop { try await bob.sync(since: from, timeoutMilliseconds: from == nil ? 0 : 5_000) }
            if let room = response.joined[roomID], found(JoinedRoomEvents(room: room)) { return true }
            since = response.nextBatch
        }
        return false
    }

    /// Where Bob's client stands now, for `alicesVoiceMessages(seenBy:since:for:)`.
    @MainActor
    static func bobsSyncToken(_ bob: MatrixClient) throws -> String {
        try awaitOnLoop { try await bob.sync(since: nil, timeoutMilliseconds: 0) }.nextBatch
    }

    /// Alice's voice messages Bob's client receives after `since`, listening
    /// `seconds` (its syncs wait on the server for anything new).
    @MainActor
    static func alicesVoiceMessages(seenBy bob: MatrixClient, since: String, for seconds: Double) throws -> Int {
        let end = Date().addingTimeInterval(seconds)
        var from = since
        var count = 0
        while Date() < end {
            let wait = Int(max(1, end.timeIntervalSinceNow * 1000))
            let token = from
            let response = try awaitOnLoop { try await bob.sync(since: token, timeoutMilliseconds: wait) }
            count += response.joined.values.map { JoinedRoomEvents(room: $0).voiceSenders.filter { $0 == alice }.count }
                .reduce(0, +)
            from = response.nextBatch
        }
        return count
    }

    @MainActor
    static func button(labelled label: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        Widget.descendants(of: widget).first {
            Widget.typeName($0) == "GtkButton" && gtk_button_get_label(hark_button($0)).map { String(cString: $0) } == label
        }
    }

    func testAnInvitationBobsVoiceMessageAndATakeRecordedIntoTheRoom() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        try MainActor.assumeIsolated {
            PlaybackController.audioSink = "fakesink sync=true"  // no sound card here
            let bob = try Self.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try Self.signIn(window, homeserver)
                conversations.isWindowActive = { false }
                var notifications: [RoomNotification] = []
                conversations.notify = { notifications.append($0) }
                let history = try XCTUnwrap(window.history)
                let roomID = try awaitOnLoop { try await bob.createRoom(name: "Voice", invite: [Self.alice]) }

                // The invitation, accepted from the sidebar: the room opens.
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Voice, Invitation from @bob:localhost") },
                              "\(conversations.sidebar.rowNames)")
                let accept = try XCTUnwrap(Self.button(labelled: "_Accept", in: conversations.sidebar.list))
                hark_test_emit(accept, "clicked")
                // (The room opens once the join has answered, maybe a turn after its row shows.)
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Voice") && history.scope == .room(roomID) },
                              "\(conversations.sidebar.rowNames)")
                XCTAssertEqual(history.scope, .room(roomID))
                XCTAssertEqual(conversations.sidebar.selected, .room(roomID))

                // Bob's voice message, while Hark is in the background: counted, notified, named.
                conversations.show(.recordings)
                _ = try Self.sendVoice(from: bob, to: roomID, path: voice)
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Voice, 1 unread, Latest from bob") },
                              "\(conversations.sidebar.rowNames)")
                let received = try XCTUnwrap(try store.shownIDs(in: .room(roomID)).first)
                XCTAssertEqual(notifications, [RoomNotification(title: "bob", body: "Voice message in Voice · 0:04", roomID: roomID,
                                                                 messageID: received)])
                XCTAssertEqual(history.count, 0, "the recordings hold no received message")

                // The notification's action opens the room at its message.
                let application = try XCTUnwrap(gtk_window_get_application(window.window))
                g_action_group_activate_action(OpaquePointer(application), RoomNotification.openRoomAction,
                                               g_variant_new_string(roomID))
                XCTAssertEqual(history.scope, .room(roomID))
                XCTAssertEqual(history.count, 1)
                XCTAssertTrue(waitUntil { history.liveRows.contains { $0.shownSender == "bob" && $0.message?.state == .ready } },
                              "downloaded and analysed")
                XCTAssertEqual(try store.matrix.room(roomID)?.unreadCount, 1, "not seen while the window is in the background")

                // The window comes to the front: the room on screen is seen.
                conversations.isWindowActive = { true }
                conversations.show(.room(roomID))
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.unreadCount == 0 })
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Voice, Latest from bob") })

                // Another, with the recordings on screen in the active window: no notification;
                // playing it (from wherever) is hearing it.
                conversations.show(.recordings)
                _ = try Self.sendVoice(from: bob, to: roomID, path: voice)
                var second: Message?
                XCTAssertTrue(waitUntil {
                    second = (try? store.shownIDs(in: .room(roomID)))?.compactMap { try? store.message($0) }
                        .first { $0.unread && $0.state == .ready }
                    return second != nil
                })
                XCTAssertEqual(notifications.count, 1, "none while the window is active")
                let playback = try XCTUnwrap(window.playback)
                playback.play(try XCTUnwrap(second))
                XCTAssertTrue(waitUntil { (try? store.message(second!.id))?.unread == false }, "heard")
                playback.stop()
                XCTAssertTrue(waitUntil { conversations.sidebar.rowNames.contains("Voice, Latest from bob") })
                conversations.show(.room(roomID))

                // Record in the room: Stop leads to a draft, and nothing reaches Bob before Send.
                let composer = try XCTUnwrap(window.composer)
                let draft = try XCTUnwrap(composer.draft)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                XCTAssertNil(Self.accessibleLabel(of: composer.recordButton, is: "Record"))
                composer.toggleRecording()
                XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > 1 })
                XCTAssertNil(Self.accessibleLabel(of: composer.recordButton, is: "Stop and review"))
                let bobBefore = try Self.bobsSyncToken(bob)
                composer.toggleRecording()
                XCTAssertTrue(waitUntil { draft.message != nil && !draft.isTrimming }, "a draft after Stop")
                let takeID = try XCTUnwrap(draft.message?.id)
                XCTAssertEqual(gtk_widget_get_visible(draft.widget), 1)
                XCTAssertNil(Self.accessibleLabel(of: draft.sendButton, is: "Send"))
                XCTAssertNil(Self.accessibleLabel(of: draft.discardButton, is: "Discard"))
                XCTAssertEqual(gtk_root_get_focus(OpaquePointer(window.window)), draft.sendButton, "Enter sends")
                XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 0,
                               "nothing reached Bob while the draft is up")
                XCTAssertEqual(try store.matrix.sends(of: takeID), [])
                history.apply(.storeChanged)  // the list read again, as another process's change makes it
                XCTAssertNil(history.row(showing: takeID), "the draft is no row of the room's before Send")
                // Play in the draft plays it, through the app's player.
                hark_test_emit(draft.playButton, "clicked")
                XCTAssertTrue(waitUntil { playback.currentID == takeID && playback.isPlaying })
                XCTAssertNil(Self.accessibleLabel(of: draft.playButton, is: "Pause \(draft.message?.title ?? "")"))
                hark_test_emit(draft.playButton, "clicked")
                XCTAssertTrue(waitUntil { !playback.isPlaying })
                // Send: exactly one voice event.
                hark_test_emit(draft.sendButton, "clicked")
                XCTAssertEqual(gtk_widget_get_visible(draft.widget), 0, "the draft is gone")
                XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: takeID)) == .sent })
                let take = try store.message(takeID)
                XCTAssertEqual(take.roomID, roomID)
                XCTAssertTrue(waitUntil { history.row(showing: take.id)?.shownSendState == "Sent" })
                XCTAssertTrue(try Self.bobSees(bob, roomID) { room in room.voiceSenders.contains(Self.alice) },
                              "Bob's client has Alice's voice message")
                XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 1, "exactly one")

                // Another take, discarded from its draft: nothing is sent; Undo brings the draft back.
                composer.toggleRecording()
                XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > 1 })
                composer.toggleRecording()
                XCTAssertTrue(waitUntil { draft.message != nil && !draft.isTrimming })
                let discardedID = try XCTUnwrap(draft.message?.id)
                XCTAssertTrue(composer.canCancel, "Esc discards the draft")
                hark_test_emit(draft.discardButton, "clicked")
                XCTAssertNil(draft.message)
                XCTAssertEqual(try store.message(discardedID).state, .deleted)
                window.undoLastDeletion()
                XCTAssertEqual(draft.message?.id, discardedID, "the draft is back")
                XCTAssertEqual(gtk_widget_get_visible(draft.widget), 1)
                XCTAssertEqual(try store.message(discardedID).state, .ready)
                composer.cancel()  // Esc
                XCTAssertNil(draft.message)
                XCTAssertEqual(try store.matrix.sends(of: discardedID), [], "a discarded draft is not sent")
                XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, since: bobBefore, for: 3), 1, "still one")
                XCTAssertTrue(try Self.bobSees(bob, roomID) { room in room.voiceSenders.contains(Self.alice) },
                              "Bob's client has Alice's voice message")
            }
        }
    }

    func testARoomsEarlierMessagesComeAPageAtATime() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            // Sixty voice messages from before Alice joined: more than a sync's
            // timeline holds (Hark's filter asks for the last 50 events of a room).
            let roomID = try awaitOnLoop { try await bob.createRoom(name: "Archive") }
            let audio = try XCTUnwrap(FileManager.default.contents(atPath: voice))
            let uri = try awaitOnLoop { try await bob.upload(audio, contentType: "audio/ogg", fileName: "Old.ogg") }
            for index in 1...60 {
                let message = OutgoingVoiceMessage(title: "Old \(index)", fileName: "Old.ogg", size: audio.count,
                                                   durationMilliseconds: 4000, levels: LevelTrack())
                _ = try awaitOnLoop {
                    try await bob.sendVoiceMessage(roomID: roomID, transactionID: MatrixClient.newTransactionID(),
                                                   message: message, contentURI: uri)
                }
            }
            try awaitOnLoop { try await bob.invite(roomID: roomID, userID: Self.alice) }
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try Self.signIn(window, homeserver)
                let history = try XCTUnwrap(window.history)
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.membership == .invite })
                try awaitOnLoop { try await conversations.account.session!.join(roomID) }
                conversations.show(.room(roomID))
                // The sync brings the newest 50 events; the rest come a page (30) at a time,
                // as the list, opened at its top and then scrolled, reaches its top.
                hark_test_emit_int(history.scroller, "edge-reached", Int32(GTK_POS_TOP.rawValue))
                XCTAssertTrue(waitUntil { history.count == 60 }, "\(history.count) of 60")
                hark_test_emit_int(history.scroller, "edge-reached", Int32(GTK_POS_TOP.rawValue))
                XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.historyComplete == true }, "paged to the room's start")
                XCTAssertEqual(history.count, 60)
                XCTAssertEqual(Set(try store.shownIDs(in: .room(roomID)).map { try store.message($0).title }),
                               Set((1...60).map { "Old \($0)" }))
            }
        }
    }

    func testSendToDeleteForEveryoneAndAnEncryptedRoomThatNothingIsSentInto() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        try MainActor.assumeIsolated {
            let bob = try Self.bob(homeserver)
            var recordingID = ""
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: { store in
                recordingID = try store.importFile(voice, title: "Dentist on Monday").id
            }) { store, window in
                let conversations = try Self.signIn(window, homeserver)
                let session = try XCTUnwrap(conversations.account.session)
                let history = try XCTUnwrap(window.history)
                let plain = try awaitOnLoop { try await bob.createRoom(name: "Plain", invite: [Self.alice]) }
                let secret = try awaitOnLoop { try await bob.createRoom(name: "Secret", invite: [Self.alice], encrypted: true) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(secret)) != nil && (try? store.matrix.room(plain)) != nil })
                try awaitOnLoop { try await session.join(plain) }
                try awaitOnLoop { try await session.join(secret) }
                XCTAssertTrue(waitUntil { (try? store.matrix.room(secret))??.isEncrypted == true })
                conversations.show(.recordings)

                // Send to…, from the row's menu: the plain room is offered, the encrypted one not.
                let row = try XCTUnwrap(history.row(showing: recordingID))
                XCTAssertTrue(try Self.menuItems(row).contains("Send to…"))
                XCTAssertFalse(try Self.menuItems(row).contains("Delete for Everyone"), "never sent")
                gtk_widget_activate_action_variant(row.widget, HistoryActions.Name.sendTo.detailed, g_variant_new_string(recordingID))
                XCTAssertTrue(waitUntil { ShownSendToDialog.over(window) != nil })
                let dialog = try XCTUnwrap(ShownSendToDialog.over(window))
                // (Alice may be in rooms of the class's other tests: same server.)
                XCTAssertTrue(dialog.roomNames.contains("Plain"), "\(dialog.roomNames)")
                XCTAssertFalse(dialog.roomNames.contains("Secret"), "never an encrypted room")
                dialog.choose("Plain")
                XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: recordingID)) == .sent })
                XCTAssertTrue(waitUntil { history.row(showing: recordingID)?.shownSendState == "Sent" })
                // The toast that said it was sending goes once the row says how it ended.
                let sending = "Sending “Dentist on Monday” to Plain"
                XCTAssertTrue(window.toastTexts.contains(sending), "\(window.toastTexts)")
                XCTAssertTrue(waitUntil { !Self.showsText(sending, in: window) }, "the toast stayed after Sent")
                let eventID = try XCTUnwrap(try store.matrix.sends(of: recordingID).first?.eventID)
                XCTAssertTrue(try Self.bobSees(bob, plain) { $0.eventIDs.contains(eventID) })

                // Delete for Everyone: the event is redacted, then the local Delete with its Undo.
                let sentRow = try XCTUnwrap(history.row(showing: recordingID))
                XCTAssertTrue(try Self.menuItems(sentRow).contains("Delete for Everyone"))
                gtk_widget_activate_action_variant(sentRow.widget, HistoryActions.Name.deleteForEveryone.detailed,
                                                   g_variant_new_string(recordingID))
                XCTAssertTrue(waitUntil { window.toastTexts.contains("“Dentist on Monday” deleted for everyone") })
                XCTAssertEqual(try store.message(recordingID).state, .deleted, "deleted here, undoable")
                XCTAssertEqual(window.pendingDeletions.map(\.message.id), [recordingID])
                let json = try awaitOnLoop { try await bob.eventJSON(roomID: plain, eventID: eventID) }
                let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
                XCTAssertEqual((event["content"] as? [String: Any])?.isEmpty, true, "redacted for Bob too: \(event)")

                // The encrypted room: Record unavailable, saying why; a send refused before the outbox.
                conversations.show(.room(secret))
                let composer = try XCTUnwrap(window.composer)
                XCTAssertEqual(gtk_widget_get_sensitive(composer.recordButton), 0)
                let tooltip = gtk_widget_get_tooltip_text(composer.recordButton).map { String(cString: $0) } ?? ""
                XCTAssertTrue(tooltip.hasPrefix("This room is end-to-end encrypted and Hark’s encryption is not set up"), tooltip)
                let other = try store.importFile(voice, title: "Never sent")
                conversations.send(other, to: secret)
                XCTAssertTrue(window.toastTexts.last?.hasPrefix("“Never sent” was not sent: This room is end-to-end encrypted and Hark’s encryption is not set up") == true,
                              "\(window.toastTexts)")
                XCTAssertEqual(try store.matrix.sends(of: other.id), [])
            }
        }
    }

    /// What a row's menu offers as it opens, by its items' words, as the
    /// menu's model lists them (the items that do not apply are not in it).
    @MainActor
    private static func menuItems(_ row: MessageRow) throws -> [String] {
        gtk_menu_button_popup(OpaquePointer(row.menuButton))
        defer { gtk_menu_button_popdown(OpaquePointer(row.menuButton)) }
        XCTAssertTrue(waitUntil { row.menuIsOpen }, "the menu opens")
        let model = try XCTUnwrap(gtk_menu_button_get_popover(OpaquePointer(row.menuButton))
            .flatMap { gtk_popover_menu_get_menu_model(OpaquePointer($0)) })
        return (0..<g_menu_model_get_n_items(model)).flatMap { section -> [String] in
            guard let items = g_menu_model_get_item_link(model, section, "section") else { return [] }
            defer { g_object_unref(UnsafeMutableRawPointer(items)) }
            return (0..<g_menu_model_get_n_items(items)).compactMap { index in
                guard let label = g_menu_model_get_item_attribute_value(items, index, "label", nil) else { return nil }
                defer { g_variant_unref(label) }
                return String(cString: g_variant_get_string(label, nil)).replacingOccurrences(of: "_", with: "")
            }
        }
    }

    /// Whether a label on screen in the window shows `text`.
    @MainActor
    private static func showsText(_ text: String, in window: MainWindow) -> Bool {
        Widget.descendants(of: Widget.widget(window.window)).contains {
            Widget.typeName($0) == "GtkLabel" && gtk_widget_get_mapped($0) != 0
                && gtk_label_get_text(hark_label($0)).map { String(cString: $0) } == text
        }
    }
}

/// What a room's part of Bob's sync holds.
struct JoinedRoomEvents {
    let room: SyncResponse.JoinedRoom
    var voiceSenders: [String] { audio.map(\.sender) }
    var eventIDs: [String] { audio.compactMap(\.eventID) }
    private var audio: [RoomEvent] {
        room.timeline.filter { event in
            if case .message(let content) = event.content { return content.isAudio && event.eventID != nil }
            return false
        }
    }
}
