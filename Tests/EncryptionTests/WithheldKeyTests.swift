import Conversations
import Foundation
import HarkTestSupport
import Matrix
import MessageStore
import XCTest

/// A peer that shares room keys only with devices their owner cross-signed
/// (Element since 2026): Hark cannot read it before it has cross-signed
/// itself, is told why, and reads the next message once it has.
final class WithheldKeyTests: XCTestCase {
    func testAPeerSharesWithHarkOnceHarkHasCrossSigned() throws {
        try EncryptedRoomFixture.run { fixture in
            let alice = fixture.alice
            try await fixture.bob.call("trust", ["mode": "cross_signed_only"])
            _ = try await fixture.bobSendsVoice()
            for _ in 0..<3 { try await alice.syncOnce(timeoutMilliseconds: 1000) }
            let withheld = try fixture.messagesInRoom()
            XCTAssertEqual(withheld.map(\.undecrypted?.standing), [.withheld], "withheld from a device nobody verified")
            XCTAssertEqual(withheld.first?.undecrypted?.withheld, "m.unverified", "its row says why")
            let encryption = try XCTUnwrap(alice.encryption)
            XCTAssertEqual(Array(encryption.withheld.values), ["m.unverified"])

            let session = try XCTUnwrap(alice.client.session)
            _ = try await CrossSigning(client: alice.client, userID: session.userID, deviceID: session.deviceID).createIdentity()
            _ = try await fixture.bobSendsVoice()
            try await EncryptedRoomFixture.sync(alice) { try fixture.messagesInRoom().filter { $0.undecrypted == nil }.count == 1 }
            XCTAssertEqual(try fixture.messagesInRoom().map(\.undecrypted?.standing), [.withheld, nil],
                           "the first stays unreadable: its key was never sent")
        }
    }
}
