import Conversations
import Foundation
import Localization
import Matrix
import MessageStore

/// The one-line reason every failing command prints, and on a second line
/// the details a report of the problem needs (the server's code, what did
/// not decode). A server's words are in both: no control character of
/// theirs reaches the terminal.
func printFailure(_ reason: Any) {
    // A stand-in for a name that is not UTF-8 is shown as the user's name.
    let text = StandInPaths.shown(in: (reason as? CustomStringConvertible)?.description ?? "\(reason)")
    var lines = "hark: " + safe(text) + "\n"
    if let details = (reason as? MatrixError)?.details ?? (reason as? MatrixAccount.Failure)?.details {
        lines += "hark: " + tr("details: {details}", ["details": safe(details)]) + "\n"
    }
    FileHandle.standardError.write(Data(lines.utf8))
}

/// `text` for the terminal: its own line breaks and tabs (an id and its
/// transcript) kept, every other control character shown, not obeyed.
private func safe(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.split(separator: "\t", omittingEmptySubsequences: false).map { terminalSafe(String($0)) }.joined(separator: "\t")
    }.joined(separator: "\n")
}
