import Foundation
import MessageStore

/// The one-line reason every failing command prints.
func printFailure(_ reason: Any) {
    // A stand-in for a name that is not UTF-8 is shown as the user's name.
    let text = StandInPaths.shown(in: (reason as? CustomStringConvertible)?.description ?? "\(reason)")
    FileHandle.standardError.write(Data("hark: \(text)\n".utf8))
}
