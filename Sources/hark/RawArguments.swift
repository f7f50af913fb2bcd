import Foundation

/// The command-line arguments as the kernel passed them: bytes, which need
/// not be UTF-8 (file names on Linux are any bytes but `/` and NUL).
/// `CommandLine.arguments` decodes them lossily, turning such a name into
/// one that does not exist. An argument that is not UTF-8 but names an
/// existing file becomes a stand-in path: a symbolic link, in a private
/// folder removed at exit, whose UTF-8 name is the lossy one (so a title made
/// from it reads well) and whose target is the original bytes.
enum RawArguments {
    /// The arguments after the program name, or why they cannot be used.
    static func read() -> Result<[String], UsageError> {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            if let text = String(validatingCString: raw) {
                arguments.append(text)
                continue
            }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
            let lossy = String(decoding: bytes, as: UTF8.self)
            var status = stat()
            guard lstat(raw, &status) == 0, let standIn = standIn(for: raw, named: lossy) else {
                return .failure(UsageError("'\(lossy)' is not valid UTF-8 and names no file that exists"))
            }
            arguments.append(standIn)
        }
        return .success(arguments)
    }

    /// A link named after `lossy`'s last component, pointing at `raw`.
    private static func standIn(for raw: UnsafePointer<CChar>, named lossy: String) -> String? {
        guard let folder = standInFolder else { return nil }
        let name = (lossy as NSString).lastPathComponent
        let link = folder + "/" + (name.isEmpty ? "argument" : name)
        // An absolute target: the link lives elsewhere than the caller's folder.
        var target = Array(UnsafeBufferPointer(start: raw, count: strlen(raw) + 1))
        if target.first != CChar(UInt8(ascii: "/")) {
            target = Array(FileManager.default.currentDirectoryPath.utf8CString.dropLast()) + [CChar(UInt8(ascii: "/"))] + target
        }
        guard symlink(target, link) == 0 else { return nil }
        return link
    }

    /// Made on first use, removed when the process exits.
    private static let standInFolder: String? = {
        let pattern = FileManager.default.temporaryDirectory.appendingPathComponent("hark-arguments-XXXXXX").path
        var template = Array(pattern.utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        standInFolderToRemove = folder
        atexit {
            if let folder = standInFolderToRemove { try? FileManager.default.removeItem(atPath: folder) }
        }
        return folder
    }()
}

nonisolated(unsafe) private var standInFolderToRemove: String?
