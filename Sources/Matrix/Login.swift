import Foundation

/// `GET /_matrix/client/v3/login`: the ways the server lets a client sign in.
public struct LoginFlows: Decodable, Sendable, Equatable {
    public struct Flow: Decodable, Sendable, Equatable {
        public var type: String
    }

    public var flows: [Flow]

    public static let password = "m.login.password"

    public init(flows: [Flow]) {
        self.flows = flows
    }

    /// A flow of a shape Hark does not know (no `type`, or not a string) is
    /// skipped: it must not hide a password flow beside it.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        flows = try container.decode([Lenient<Flow>].self, forKey: .flows).compactMap(\.value)
    }

    enum CodingKeys: String, CodingKey { case flows }

    public var offersPassword: Bool { flows.contains { $0.type == Self.password } }

    /// Nothing when password login is offered; otherwise the error that says
    /// Hark cannot sign in to `homeserver` (only SSO, OAuth or a token).
    public func requirePassword(homeserver: String) throws(MatrixError) {
        guard offersPassword else { throw .passwordLoginUnsupported(homeserver: homeserver) }
    }
}

/// `POST /_matrix/client/v3/login` with `m.login.password` and an `m.id.user` identifier.
public struct PasswordLoginRequest: Encodable, Sendable, Equatable {
    public struct Identifier: Encodable, Sendable, Equatable {
        public var type = "m.id.user"
        public var user: String
    }

    public var type = LoginFlows.password
    public var identifier: Identifier
    public var password: String
    public var deviceName: String
    public var deviceID: String?

    enum CodingKeys: String, CodingKey {
        case type, identifier, password
        case deviceName = "initial_device_display_name"
        case deviceID = "device_id"
    }

    /// `user` is the local part (`alice`) or a whole Matrix ID (`@alice:example.org`).
    public init(user: String, password: String, deviceName: String = "Hark", deviceID: String? = nil) {
        identifier = Identifier(user: user)
        self.password = password
        self.deviceName = deviceName
        self.deviceID = deviceID
    }
}

/// A signed-in session: who, which device, and the token that proves it.
/// Not Codable on purpose: the token goes to the Secret Service
/// (`SecretStore`) and nowhere else.
public struct Session: Sendable, Equatable {
    public var homeserver: String
    public var userID: String
    public var deviceID: String
    public var accessToken: String

    public init(homeserver: String, userID: String, deviceID: String, accessToken: String) {
        self.homeserver = homeserver
        self.userID = userID
        self.deviceID = deviceID
        self.accessToken = accessToken
    }
}

/// The answer to a login.
public struct LoginResponse: Decodable, Sendable, Equatable {
    public var userID: String
    public var accessToken: String
    public var deviceID: String
    public var wellKnown: WellKnownClient?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case accessToken = "access_token"
        case deviceID = "device_id"
        case wellKnown = "well_known"
    }
}

/// `GET /_matrix/client/v3/account/whoami`.
public struct WhoAmI: Decodable, Sendable, Equatable {
    public var userID: String
    public var deviceID: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case deviceID = "device_id"
    }
}

/// One element of a list that decodes as nil, not as the whole list's
/// failure, when it is not what was expected.
struct Lenient<Element: Decodable>: Decodable {
    let value: Element?

    init(from decoder: Decoder) throws {
        value = try? Element(from: decoder)
    }
}
