import CGLib

/// A GError turned into a Swift error: domain, code and the human message.
public struct GLibError: Error, Sendable, Equatable, CustomStringConvertible {
    public let domain: String
    public let code: Int32
    public let message: String

    public init(domain: String, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Takes ownership of `error` (transfer full) and frees it.
    public init(consuming error: UnsafeMutablePointer<GError>) {
        domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "unknown"
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(error)
    }

    public var description: String { message }
}

/// Calls a C function that reports failure through `GError **`.
public func withGError<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(GLibError) -> T {
    var error: UnsafeMutablePointer<GError>?
    let result = body(&error)
    if let error { throw GLibError(consuming: error) }
    return result
}
