import Foundation
import Synchronization

/// Paths standing for names a Swift `String` cannot hold: file names that
/// are not UTF-8 (Linux allows any bytes but `/` and NUL). The command line
/// turns each such argument into a stand-in path of its own and registers
/// here the real name's bytes, a UTF-8 path to the folder it is in, and the
/// name as best it reads. Reading needs none of this (the stand-in is a
/// symbolic link to the real name), but a file Hark *writes* there
/// (`ExportTarget`) must be checked, linked and renamed by its real name, in
/// its real folder; and a message naming the stand-in names the user's path.
public enum StandInPaths {
    public struct Name: Sendable {
        /// The real path, absolute, NUL-terminated, as the kernel takes it.
        public let bytes: [CChar]
        /// A UTF-8 path to the folder the real name is in.
        public let folder: String
        public init(bytes: [CChar], folder: String) {
            self.bytes = bytes
            self.folder = folder
        }
    }

    private static let names = Mutex<[String: Name]>([:])
    /// What each stand-in (and each folder link) is shown as.
    private static let shownNames = Mutex<[String: String]>([:])

    /// Makes `standIn` stand for `name`, shown as `shown`.
    public static func register(_ standIn: String, for name: Name?, shown: String) {
        if let name { names.withLock { $0[standIn] = name } }
        shownNames.withLock { $0[standIn] = shown }
    }

    /// Runs `body` with the path to give the kernel for `path`: the real
    /// name it stands for, or itself.
    static func withSystemPath<Result>(_ path: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        guard let name = names.withLock({ $0[path] }) else { return body(path) }
        return name.bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The folder `path` is in, as a path that reaches it.
    static func folder(of path: String) -> String {
        names.withLock { $0[path] }?.folder ?? URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// `text` with every stand-in path in it replaced by the user's own.
    public static func shown(in text: String) -> String {
        let known = shownNames.withLock { $0 }
        var result = text
        for standIn in known.keys.sorted(by: { $0.count > $1.count }) where result.contains(standIn) {
            result = result.replacingOccurrences(of: standIn, with: known[standIn]!)
        }
        return result
    }
}
