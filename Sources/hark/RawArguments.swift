import Foundation
import Localization
import MessageStore

/// The command-line arguments as the kernel passed them: bytes, which need
/// not be UTF-8 (file names on Linux are any bytes but `/` and NUL).
/// `CommandLine.arguments` decodes them lossily, turning such a name into
/// one that does not exist. Each argument that is not UTF-8 becomes a
/// stand-in path of its own, in a private folder removed at exit
/// (`hark-arguments-…/N/NAME`): a symbolic link whose UTF-8 name is the lossy
/// one (so a title made from it reads well) and whose target is the original
/// bytes. Its real name is registered with `StandInPaths`, so that a file
/// written there (an export) gets that name, and messages show the user's
/// path rather than the stand-in.
enum RawArguments {
    /// The arguments after the program name, and the stand-ins among them
    /// for names that do not exist (with the name as shown): good only as a
    /// file to write. A name no stand-in could be made for is a usage error.
    static func read() -> Result<(arguments: [String], missing: [String: String]), UsageError> {
        var arguments: [String] = []
        var missing: [String: String] = [:]
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            if let text = String(validatingCString: raw) {
                arguments.append(text)
                continue
            }
            let shown = lossy(raw)
            guard let standIn = standIn(for: raw, number: arguments.count) else {
                return .failure(UsageError(tr("'{name}' is not valid UTF-8, and no stand-in for it could be made in {folder}",
                                              ["name": shown, "folder": FileManager.default.temporaryDirectory.path])))
            }
            var status = stat()
            if lstat(raw, &status) != 0 { missing[standIn] = shown }
            arguments.append(standIn)
        }
        return .success((arguments, missing))
    }

    private static func lossy(_ raw: UnsafePointer<CChar>) -> String {
        String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self),
                                             count: strlen(raw)), as: UTF8.self)
    }

    /// `…/N/NAME`, a link to `raw` made absolute, registered with
    /// `StandInPaths` with the folder it is in: the real folder's own path
    /// when that is UTF-8, else a link to it (`…/N-folder`).
    private static func standIn(for raw: UnsafePointer<CChar>, number: Int) -> String? {
        guard let base = standInFolder else { return nil }
        let folder = base + "/\(number)"
        guard mkdir(folder, 0o700) == 0 else { return nil }
        created.append(folder)
        var target = Array(UnsafeBufferPointer(start: raw, count: strlen(raw)))
        if target.first != CChar(UInt8(ascii: "/")) { target = workingDirectory() + [CChar(UInt8(ascii: "/"))] + target }
        let shown = lossy(raw)
        let name = (shown as NSString).lastPathComponent
        let link = folder + "/" + (name.isEmpty || name == "/" ? "argument" : name)
        guard symlink(target + [0], link) == 0 else { return nil }
        created.append(link)
        // The real name's folder: everything before its last `/`.
        let slash = target.lastIndex(of: CChar(UInt8(ascii: "/"))) ?? 0
        let parent = Array(target[..<max(slash, 1)])
        var folderPath: String
        if let text = String(validating: parent.map { UInt8(bitPattern: $0) }, as: UTF8.self) {
            folderPath = text
        } else {
            folderPath = base + "/\(number)-folder"
            guard symlink(parent + [0], folderPath) == 0 else { return nil }
            created.append(folderPath)
            let shownFolder = (shown as NSString).deletingLastPathComponent
            StandInPaths.register(folderPath, for: nil, shown: shownFolder.isEmpty ? lossy(parent + [0]) : shownFolder)
        }
        StandInPaths.register(link, for: StandInPaths.Name(bytes: target + [0], folder: folderPath), shown: shown)
        return link
    }

    /// The current folder's path as bytes (it need not be UTF-8 either).
    private static func workingDirectory() -> [CChar] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return Array(FileManager.default.currentDirectoryPath.utf8CString.dropLast()) }
        return Array(buffer.prefix { $0 != 0 })
    }

    /// Made on first use, removed when the process exits: each link and
    /// folder made in it by name (never following a link into the user's
    /// folders), then it.
    private static let standInFolder: String? = {
        let pattern = FileManager.default.temporaryDirectory.appendingPathComponent("hark-arguments-XXXXXX").path
        var template = Array(pattern.utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        created = [folder]
        atexit {
            for path in created.reversed() {
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR { rmdir(path) } else { unlink(path) }
            }
        }
        return folder
    }()
}

/// What the stand-ins made: written at start, on the main thread, and read
/// at exit.
nonisolated(unsafe) private var created: [String] = []
