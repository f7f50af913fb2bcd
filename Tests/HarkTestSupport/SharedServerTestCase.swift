import XCTest

/// A test class whose tests share one Synapse with `users` registered:
/// started before its first test, stopped by its pid after its last.
open class SharedServerTestCase: XCTestCase {
    open class var users: [String] { ["alice", "bob"] }

    nonisolated(unsafe) private static var servers: [ObjectIdentifier: SynapseServer] = [:]

    override open class func setUp() {
        super.setUp()
        servers[ObjectIdentifier(self)] = SharedHomeserver.start(users: users)
    }

    override open class func tearDown() {
        servers.removeValue(forKey: ObjectIdentifier(self))?.stop()
        super.tearDown()
    }

    /// The class's homeserver (to stop and start again), nil when it did not start.
    public var server: SynapseServer? { Self.servers[ObjectIdentifier(type(of: self))] }

    /// The class's homeserver's URL, or the test fails with what Synapse said.
    public var homeserver: String {
        get throws {
            guard let server else { throw SynapseFailed(output: "no homeserver (see the log above)") }
            return server.url
        }
    }
}
