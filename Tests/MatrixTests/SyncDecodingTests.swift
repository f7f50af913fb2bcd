import Foundation
@testable import Matrix
import Testing

/// The part of `/sync` Hark reads, from a response shaped like Synapse's.
@Suite struct SyncDecodingTests {
    static let response = """
    {
      "next_batch": "s9_7_0_1",
      "account_data": {"events": []},
      "presence": {"events": []},
      "rooms": {
        "join": {
          "!voice:localhost": {
            "state": {"events": [
              {"type": "m.room.name", "state_key": "", "sender": "@a:localhost", "event_id": "$n1",
               "content": {"name": "Family"}},
              {"type": "m.room.member", "state_key": "@b:localhost", "sender": "@b:localhost", "event_id": "$m1",
               "content": {"membership": "join", "displayname": "Bob"}}
            ]},
            "timeline": {"limited": true, "prev_batch": "t1", "events": [
              {"type": "m.room.message", "sender": "@b:localhost", "event_id": "$v1", "origin_server_ts": 1700000000000,
               "content": {"msgtype": "m.audio", "body": "Voice message", "url": "mxc://localhost/v1",
                           "org.matrix.msc1767.audio": {"duration": 3000, "waveform": [0, 512, 1024]},
                           "org.matrix.msc3245.voice": {}}},
              {"type": "m.room.message", "sender": "@b:localhost", "event_id": "$t1",
               "content": {"msgtype": "m.text", "body": "hi"}},
              {"type": "m.room.message", "sender": "@b:localhost", "event_id": "$a1",
               "content": {"msgtype": "m.audio", "body": "song.mp3", "url": "mxc://localhost/a1"}},
              {"type": "m.room.name", "state_key": "", "sender": "@a:localhost", "event_id": "$n2",
               "content": {"name": "Family & friends"}},
              {"type": "m.room.redaction", "sender": "@b:localhost", "event_id": "$r1", "redacts": "$old",
               "content": {}},
              {"type": "m.room.redaction", "sender": "@b:localhost", "event_id": "$r2",
               "content": {"redacts": "$older"}},
              {"type": "m.reaction", "sender": "@b:localhost", "event_id": "$x1", "content": {"m.relates_to": {}}}
            ]}
          },
          "!secret:localhost": {
            "state": {"events": [
              {"type": "m.room.encryption", "state_key": "", "sender": "@a:localhost", "event_id": "$e1",
               "content": {"algorithm": "m.megolm.v1.aes-sha2"}}
            ]},
            "timeline": {"events": []}
          }
        },
        "invite": {
          "!new:localhost": {"invite_state": {"events": [
            {"type": "m.room.name", "state_key": "", "sender": "@c:localhost", "content": {"name": "Choir"}},
            {"type": "m.room.member", "state_key": "@a:localhost", "sender": "@c:localhost",
             "content": {"membership": "invite"}}
          ]}}
        },
        "leave": {"!gone:localhost": {}}
      }
    }
    """

    @Test func readsRoomsMessagesInvitesAndTheNextBatch() throws {
        let sync = try JSONDecoder().decode(SyncResponse.self, from: Data(Self.response.utf8))
        #expect(sync.nextBatch == "s9_7_0_1")
        #expect(Set(sync.joined.keys) == ["!voice:localhost", "!secret:localhost"])
        let room = try #require(sync.joined["!voice:localhost"])
        #expect(room.name == "Family & friends")
        #expect(!room.isEncrypted)
        #expect(room.limited && room.previousBatch == "t1")
        // The timeline's audio, among its other events, and what it redacts (with `redacts` at the top or in content).
        var audio: [(event: RoomEvent, content: MessageContent)] = []
        var redacted: [String] = []
        for event in room.timeline {
            switch event.content {
            case .message(let content) where content.isAudio: audio.append((event, content))
            case .redaction(let redacts): redacted.append(redacts)
            default: continue
            }
        }
        #expect(audio.map { $0.event.eventID } == ["$v1", "$a1"])
        #expect(audio[0].content.isVoice && !audio[1].content.isVoice)
        #expect(audio[0].event.sender == "@b:localhost" && audio[0].event.originServerTimestamp == 1_700_000_000_000)
        #expect(audio[0].content.waveform == [0, 512, 1024])
        #expect(redacted == ["$old", "$older"])
        #expect(sync.joined["!secret:localhost"]?.isEncrypted == true)
        let invite = try #require(sync.invited["!new:localhost"])
        #expect(invite.name == "Choir" && invite.inviter(of: "@a:localhost") == "@c:localhost" && !invite.isEncrypted)
        #expect(sync.left == ["!gone:localhost"])
    }

    @Test func anEmptyAnswerHasOnlyTheToken() throws {
        let sync = try JSONDecoder().decode(SyncResponse.self, from: Data(#"{"next_batch":"s1"}"#.utf8))
        #expect(sync.nextBatch == "s1" && sync.joined.isEmpty && sync.invited.isEmpty)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SyncResponse.self, from: Data(#"{"rooms":{}}"#.utf8))
        }
    }
}
