import CAdwaita
import CGLib
import CGtk
import CTestSignals
import Conversations
import Foundation
import GLibSupport
import HarkModel
import HarkTestSupport
@testable import HarkUI
import Matrix
import MessageStore
import StoreAudio
import XCTest

/// Where a room's messages stand, against a real Synapse with Bob on the
/// other side: a take discarded in a room and brought back with Undo waits
/// there to be sent (and its transcript goes on); a message deleted while it
/// waited to be sent goes on with Undo; a message sent into a room stands
/// where it was sent, below what the room said before, however long ago it
/// was recorded.
final class RoomUndoTests: XCTestCase {
    nonisolated(unsafe) static var server: SynapseServer?

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

    /// The transcription engine `scripts/run-tests` installs into the
    /// checkout; the test is skipped when it is not there.
    static func installedEngine() throws -> String {
        let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/.build/transcriber"
        guard FileManager.default.fileExists(atPath: engine + "/hark-requirements.sha256") else {
            throw XCTSkip("the transcription engine is not installed in \(engine)")
        }
        return engine
    }

    /// Bob's room with Alice in it, shown in the window.
    @MainActor
    static func joinedRoom(_ name: String, bob: MatrixClient, conversations: WindowConversations,
                           store: MessageStore) throws -> String {
        let roomID = try awaitOnLoop { try await bob.createRoom(name: name, invite: [RoomWindowTests.alice]) }
        XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.membership == .invite })
        try awaitOnLoop { try await conversations.account.session!.join(roomID) }
        XCTAssertTrue(waitUntil { (try? store.matrix.room(roomID))??.membership == .join })
        return roomID
    }

    /// How many voice messages from Alice Bob's client has in the room (its latest events).
    @MainActor
    static func alicesVoiceMessages(seenBy bob: MatrixClient, in roomID: String) throws -> Int {
        let response = try awaitOnLoop { try await bob.sync(since: nil, timeoutMilliseconds: 0) }
        let room = try XCTUnwrap(response.joined[roomID])
        return JoinedRoomEvents(room: room).voiceSenders.filter { $0 == RoomWindowTests.alice }.count
    }

    func testATakeDiscardedInARoomComesBackUnsentWithSendAndItsTranscriptGoesOn() throws {
        let engine = try Self.installedEngine()
        setenv("HARK_TRANSCRIBER_DIR", engine, 1)
        defer { unsetenv("HARK_TRANSCRIBER_DIR") }
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        try MainActor.assumeIsolated {
            PlaybackController.audioSink = "fakesink sync=true"
            let bob = try RoomWindowTests.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: { store in
                try store.setSetting(MessageStore.transcriptionSetting, "on")
            }) { store, window in
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                let history = try XCTUnwrap(window.history)
                let roomID = try Self.joinedRoom("Drafts", bob: bob, conversations: conversations, store: store)
                conversations.show(.room(roomID))

                // Recorded into the room, then Cancel: nothing is sent; then Undo.
                let composer = try XCTUnwrap(window.composer)
                composer.source = { (.pipeline("audiotestsrc is-live=true volume=0.3"), nil) }
                composer.confirmDiscardAfter = .infinity  // thrown away without the question
                composer.toggleRecording()
                XCTAssertTrue(waitUntil { (composer.recorder?.elapsed ?? 0) > 1 })
                composer.cancel()
                XCTAssertTrue(waitUntil { !window.pendingDeletions.isEmpty && !composer.isRecording })
                let id = try XCTUnwrap(window.pendingDeletions.last?.message.id)
                XCTAssertEqual(try store.message(id).state, .deleted)
                XCTAssertEqual(try store.message(id).transcriptState, .queued)
                XCTAssertEqual(try store.matrix.sends(of: id), [], "a discarded take is not sent")
                window.undoLastDeletion()
                XCTAssertEqual(try store.message(id).state, .ready)
                XCTAssertEqual(try store.shownIDs(in: .room(roomID)), [id], "back in the room")

                // Its transcript goes on (the queue passed over it while it was deleted).
                XCTAssertTrue(waitUntil(seconds: 600) {
                    [.done, .empty].contains((try? store.message(id))?.transcriptState)
                }, "transcribed: \(String(describing: try? store.message(id).transcriptState))")

                // The row says it was not sent, and offers Send.
                var row: MessageRow?
                XCTAssertTrue(waitUntil {
                    row = history.row(showing: id)
                    return row?.shownSendState == "Not sent yet"
                }, "\(String(describing: row?.shownSendState))")
                let shown = try XCTUnwrap(row)
                XCTAssertEqual(gtk_widget_get_visible(shown.retryButton), 1, "Send is offered")
                XCTAssertEqual(gtk_button_get_label(hark_button(shown.retryButton)).map { String(cString: $0) }, "_Send")

                // Bob speaks meanwhile; Send puts the take under what he said, as it goes to him.
                _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                XCTAssertTrue(waitUntil { ((try? store.shownIDs(in: .room(roomID))) ?? []).count == 2 })
                XCTAssertEqual(history.lastMessage.map { store.matrix.senderName(of: $0) }, "bob")
                hark_test_emit(shown.retryButton, "clicked")
                XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: id)) == .sent })
                XCTAssertEqual(try store.matrix.sends(of: id).count, 1)
                XCTAssertTrue(waitUntil { history.row(showing: id)?.shownSendState == "Sent" })
                XCTAssertEqual(history.lastMessage?.id, id, "sent last, it stands last")
                XCTAssertEqual(try store.shownIDs(in: .room(roomID)).last, id)
                XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, in: roomID), 1, "on the server once")
            }
        }
    }

    func testAMessageRecordedEarlierAndSentToARoomStandsBelowTheRoomsLaterMessages() throws {
        let homeserver = try homeserver
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        // Recorded yesterday: an import keeps its file's date.
        let yesterday = Date().addingTimeInterval(-86_400)
        let earlier = folder.path("earlier.ogg")
        try FileManager.default.copyItem(atPath: voice, toPath: earlier)
        try FileManager.default.setAttributes([.modificationDate: yesterday], ofItemAtPath: earlier)
        try MainActor.assumeIsolated {
            PlaybackController.audioSink = "fakesink sync=true"
            let bob = try RoomWindowTests.bob(homeserver)
            var earlierID = "", todayID = ""
            try withWindow(storeIn: folder.url.appendingPathComponent("store"), before: { store in
                earlierID = try store.importFile(earlier, title: "Yesterday's note").id
                todayID = try store.importFile(voice, title: "Today's note").id
            }) { store, window in
                let conversations = try RoomWindowTests.signIn(window, homeserver)
                let history = try XCTUnwrap(window.history)
                let roomID = try Self.joinedRoom("Later", bob: bob, conversations: conversations, store: store)
                _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                _ = try RoomWindowTests.sendVoice(from: bob, to: roomID, path: voice)
                XCTAssertTrue(waitUntil { ((try? store.shownIDs(in: .room(roomID))) ?? []).count == 2 })

                // Send to…, from the recordings.
                conversations.show(.recordings)
                XCTAssertTrue(waitUntil { history.row(showing: earlierID) != nil })
                let row = try XCTUnwrap(history.row(showing: earlierID))
                gtk_widget_activate_action_variant(row.widget, HistoryActions.Name.sendTo.detailed, g_variant_new_string(earlierID))
                XCTAssertTrue(waitUntil { ShownSendToDialog.over(window) != nil })
                try XCTUnwrap(ShownSendToDialog.over(window)).choose("Later")
                XCTAssertTrue(waitUntil { (try? store.matrix.sendState(of: earlierID)) == .sent })
                XCTAssertEqual(try store.shownIDs(in: .recordings), [earlierID, todayID], "the recordings keep their order")

                // In the room it stands last, at the time it was sent.
                XCTAssertEqual(try store.shownIDs(in: .room(roomID)).last, earlierID)
                conversations.show(.room(roomID))
                XCTAssertEqual(history.count, 3)
                XCTAssertEqual(history.lastMessage?.id, earlierID)
                let sentAt = try XCTUnwrap(try store.matrix.sends(of: earlierID).first?.queuedAt)
                XCTAssertTrue(waitUntil { history.row(showing: earlierID) != nil })
                XCTAssertEqual(history.row(showing: earlierID)?.placedAt, sentAt, "its time in the room is when it was sent")
                XCTAssertLessThan(try store.message(earlierID).createdAt, sentAt.addingTimeInterval(-3_600), "recorded yesterday")
            }
        }
    }

    func testAMessageDeletedWhileItWaitedToBeSentIsSentOnceUndone() throws {
        let homeserver = try homeserver
        let server = try XCTUnwrap(Self.server)
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        let folder = try ScratchFolder()
        let voice = try oggVoiceFile(in: folder)
        var stopped = false
        defer { if stopped { try? server.start() } }
        try MainActor.assumeIsolated {
            let bob = try RoomWindowTests.bob(homeserver)
            try withWindow(storeIn: folder.url.appendingPathComponent("store")) { store, window in
                let conversations = try XCTUnwrap(window.conversations)
                var policy = RetryPolicy()
                policy.firstDelay = 0.05
                policy.longestDelay = 0.2
                policy.longestReconnectDelay = 0.2
                conversations.account.retryPolicy = policy
                _ = try RoomWindowTests.signIn(window, homeserver)
                let roomID = try Self.joinedRoom("Deleted", bob: bob, conversations: conversations, store: store)
                let title = try XCTUnwrap(adw_header_bar_get_title_widget(OpaquePointer(window.layout.sidebarHeader)))
                let subtitle = { adw_window_title_get_subtitle(OpaquePointer(title)).map { String(cString: $0) } ?? "" }

                // Queued while the server is away, then deleted; the server comes back meanwhile.
                server.stop()
                stopped = true
                let message = try store.importFile(voice, title: "Second thoughts")
                conversations.send(message, to: roomID)
                let entry = { (try? store.matrix.sends(of: message.id))?.first }
                XCTAssertTrue(waitUntil { (entry()?.attempts ?? 0) >= 1 }, "tried while away")
                window.delete(message)
                let deleted = Date()
                try server.start()
                stopped = false
                XCTAssertTrue(waitUntil(seconds: 120) { subtitle() == "" }, "back")
                settle(seconds: 1)  // the outbox's pass once the server answered, over the deleted message
                // Undo lasts 10 s from the delete: a server that took longer to come back leaves nothing to undo.
                let waited = Date().timeIntervalSince(deleted)
                if waited > Double(MainWindow.undoSeconds) - 1 {
                    throw XCTSkip("the server took \(Int(waited)) s to come back, longer than Undo lasts")
                }
                XCTAssertEqual(entry()?.state, .queued, "a deleted message is not sent")

                window.undoLastDeletion()
                XCTAssertTrue(waitUntil { entry()?.state == .sent }, "\(String(describing: entry()))")
                XCTAssertEqual(try Self.alicesVoiceMessages(seenBy: bob, in: roomID), 1, "once")
            }
        }
    }
}
