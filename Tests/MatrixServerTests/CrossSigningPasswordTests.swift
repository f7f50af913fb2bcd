import Conversations
import Foundation
import HarkTestSupport
@testable import Matrix
import MatrixCrypto
import XCTest

/// Publishing an identity where Synapse asks for the password first
/// (user-interactive auth): it does once the account has a master key, here
/// one left alone by an earlier, unfinished setup.
final class CrossSigningPasswordTests: SharedServerTestCase {
    override class var users: [String] { ["carol"] }

    func testTheIdentityIsPublishedWithThePasswordAndAWrongOneIsSaidToBeWrong() throws {
        let homeserver = try homeserver
        try MainActor.assumeIsolated {
            let client = MatrixClient(homeserver: homeserver)
            let session = try awaitOnLoop { try await client.login(user: "carol", password: SharedHomeserver.password) }
            try awaitOnLoop { try await client.uploadKeys(deviceKeys: try KeyServerTests.deviceKeys(session)) }
            // A master key alone: the account has no whole identity, yet Synapse guards it.
            let master = try Ed25519SigningKey.generate()
            let publicKey = MatrixBase64.encode(master.publicKey)
            let masterOnly: JSONValue = ["master_key": ["user_id": .string(session.userID), "usage": ["master"],
                                                        "keys": .object(["ed25519:\(publicKey)": .string(publicKey)])]]
            try awaitOnLoop {
                let _: Empty = try await client.call(APIRequest(.post, "\(Endpoints.client)/keys/device_signing/upload",
                                                                body: encodeJSON(masterOnly), contentType: "application/json"))
            }
            let crossSigning = CrossSigning(client: client, userID: session.userID, deviceID: session.deviceID)
            XCTAssertFalse(try awaitOnLoop { try await crossSigning.status() }.hasIdentity)

            for (password, refusal) in [(nil, CrossSigning.Failure.passwordNeeded),
                                        ("not the password", .matrix(.wrongPassword))] as [(String?, CrossSigning.Failure)] {
                let failure = try awaitOnLoop { () async -> CrossSigning.Failure? in
                    do throws(CrossSigning.Failure) {
                        _ = try await crossSigning.createIdentity(password: password)
                        return nil
                    } catch {
                        return error
                    }
                }
                XCTAssertEqual(failure, refusal)
            }
            XCTAssertEqual(CrossSigning.Failure.matrix(.wrongPassword).description, "The user name or password is wrong.")
            XCTAssertFalse(try awaitOnLoop { try await crossSigning.status() }.hasIdentity, "a refused password published nothing")

            let recoveryKey = try awaitOnLoop { try await crossSigning.createIdentity(password: SharedHomeserver.password) }
            XCTAssertNoThrow(try RecoveryKey.decode(recoveryKey))
            let status = try awaitOnLoop { try await crossSigning.status() }
            XCTAssertTrue(status.hasIdentity)
            XCTAssertTrue(status.deviceCrossSigned, "the device is signed by the identity the password let in")
        }
    }
}
