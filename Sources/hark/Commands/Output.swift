import Foundation

/// The one-line reason every failing command prints.
func printFailure(_ reason: CustomStringConvertible) {
    FileHandle.standardError.write(Data("hark: \(reason)\n".utf8))
}
