import Foundation

/// The one-line reason every failing command prints.
func printFailure(_ reason: Any) {
    let text = (reason as? CustomStringConvertible)?.description ?? "\(reason)"
    FileHandle.standardError.write(Data("hark: \(text)\n".utf8))
}
