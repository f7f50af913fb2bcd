import Foundation
import Localization

/// What the user typed to say where their account is.
public enum HomeserverInput: Sendable, Equatable {
    /// A homeserver's address, used as it is (`https://matrix.example.org`, `http://127.0.0.1:8008`).
    case url(String)
    /// A server name (`example.org`, from `@alice:example.org` or typed alone):
    /// its homeserver is found through `.well-known/matrix/client`.
    case serverName(String)

    /// Reads a Matrix ID, a server name or an http(s) URL; nil for anything else.
    public static func parse(_ text: String) -> HomeserverInput? {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty
            else { return nil }
            return .url(normalizedBaseURL(text))
        }
        var name = text
        if text.hasPrefix("@") {
            guard let colon = text.firstIndex(of: ":") else { return nil }
            name = String(text[text.index(after: colon)...])
        }
        guard isServerName(name) else { return nil }
        return .serverName(name)
    }

    /// A server name: a host (DNS name, IPv4, or [IPv6]) and an optional port.
    static func isServerName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 255 else { return false }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.:[]")
        guard name.unicodeScalars.allSatisfy(allowed.contains) else { return false }
        guard let first = name.first, first != "." && first != "-" && first != ":" else { return false }
        return true
    }

    /// Where `.well-known/matrix/client` is asked for this server name.
    public static func wellKnownURL(serverName: String) -> String {
        "https://\(serverName)/.well-known/matrix/client"
    }
}

/// A base URL without the trailing slashes (paths are appended to it).
func normalizedBaseURL(_ url: String) -> String {
    var url = url
    while url.hasSuffix("/") { url.removeLast() }
    return url
}

/// `GET /.well-known/matrix/client`: `{"m.homeserver": {"base_url": "…"}}`.
public struct WellKnownClient: Decodable, Sendable, Equatable {
    public struct Server: Decodable, Sendable, Equatable {
        public var baseURL: String
        enum CodingKeys: String, CodingKey { case baseURL = "base_url" }
    }

    public var homeserver: Server

    enum CodingKeys: String, CodingKey { case homeserver = "m.homeserver" }

    /// The homeserver's base URL the document names (as the spec's discovery
    /// says: `m.homeserver.base_url` must be an http(s) URL; trailing slashes
    /// are dropped).
    public static func baseURL(from body: Data, serverName: String) throws(MatrixError) -> String {
        guard let document = try? JSONDecoder().decode(WellKnownClient.self, from: body) else {
            throw .discoveryFailed(serverName: serverName,
                                   detail: tr("its .well-known/matrix/client names no homeserver"))
        }
        let url = document.homeserver.baseURL
        guard case .url(let base)? = HomeserverInput.parse(url) else {
            throw .discoveryFailed(serverName: serverName, detail: tr("“{address}” is not a web address", ["address": url]))
        }
        return base
    }
}
