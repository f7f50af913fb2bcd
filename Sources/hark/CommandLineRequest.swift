import Localization
import Transcription

/// What the user asked for on the command line. Parsing is kept apart from
/// running so that every command reads its arguments the same way.
enum CommandLineRequest: Equatable {
    case gui
    /// The window's application started with no window shown (the autostart entry).
    case background
    /// `still`: no moving sample data (for screenshots and tests).
    case gallery(still: Bool)
    case help
    case version
    /// Without an output file, records into the message store.
    /// `raw`: without voice processing (noise reduction, automatic gain).
    case record(output: String?, duration: Double?, source: String?, title: String?, raw: Bool)
    /// Starts a recording in the window (opening it), or stops the one it records.
    case recordToggle
    /// `target` is a file, or a message id from the store.
    case play(target: String, start: Double, rate: Double, skipSilence: Bool)
    case levels(path: String)
    case list(json: Bool, limit: Int?)
    case importFiles([String])
    case rename(id: String, title: String)
    case delete(id: String)
    case undelete(id: String)
    case export(id: String, path: String, force: Bool, format: String?)
    case waveform(input: String, png: String, width: Int, height: Int, played: Double, style: String, dark: Bool, force: Bool)
    case accountLogin(homeserver: String, user: String)
    case accountLogout
    case accountStatus(json: Bool)
    case accountRecover(new: Bool)
    case directChat(userID: String)
    case acceptIdentity(userID: String)
    case encryptionInstall
    case rooms(json: Bool)
    case join(roomID: String)
    case leave(roomID: String)
    /// `withTranscript`: the message's transcript goes inside the event (refused when it has none).
    case send(id: String, roomID: String, withTranscript: Bool)
    case sync(once: Bool)
    /// `language`: "en", "auto" or a language's code; nil keeps the one chosen before.
    case transcriberEnable(language: String?)
    case transcriberDisable
    case transcriberStatus(json: Bool)
    /// `all`: every message without a transcript (never asked for, failed, or queued).
    case transcribe(ids: [String], all: Bool)
    case search(words: String, json: Bool)
    /// A one-line reason; the process exits with status 2 (a usage error).
    case usageError(String)

    static func parse(_ arguments: [String]) -> CommandLineRequest {
        guard let first = arguments.first else { return .gui }
        var rest = ArgumentList(Array(arguments.dropFirst()), command: first)
        do {
            switch first {
            case "-h", "--help", "help":
                try rest.finish()
                return .help
            case "--version":
                try rest.finish()
                return .version
            case "--background":
                try rest.finish()
                return .background
            case "record":
                if rest.flag("--toggle") {
                    try rest.finish()
                    return .recordToggle
                }
                let output = try rest.option("--output")
                let duration = try rest.number("--duration", in: 0.1...360_000)
                let source = try rest.option("--source")
                let title = try rest.option("--title")
                let raw = rest.flag("--raw")
                try rest.finish()
                if output != nil && title != nil { throw UsageError(tr("--title names a message in the store; not with --output")) }
                if let output, let reason = OutputName.refusal(output) { throw UsageError(reason) }
                return .record(output: output, duration: duration, source: source, title: title, raw: raw)
            case "play":
                let start = try rest.number("--start", in: 0...Double.greatestFiniteMagnitude) ?? 0
                let rate = try rest.number("--rate", in: 0.5...2) ?? 1
                let skipSilence = rest.flag("--skip-silence")
                let target = try rest.positional(tr("FILE or ID"))
                try rest.finish()
                return .play(target: target, start: start, rate: rate, skipSilence: skipSilence)
            case "gallery":
                let still = rest.flag("--still")
                try rest.finish()
                return .gallery(still: still)
            case "list":
                let json = rest.flag("--json")
                let limit = try rest.number("--limit", in: 1...1_000_000).map { Int($0) }
                try rest.finish()
                return .list(json: json, limit: limit)
            case "import":
                var files: [String] = []
                while let file = try? rest.positional("FILE") { files.append(file) }
                try rest.finish()
                guard !files.isEmpty else { throw UsageError(tr("'import' needs at least one FILE")) }
                return .importFiles(files)
            case "rename":
                let id = try rest.positional("ID")
                let title = try rest.positional("TITLE")
                try rest.finish()
                return .rename(id: id, title: title)
            case "delete", "undelete":
                let id = try rest.positional("ID")
                try rest.finish()
                return first == "delete" ? .delete(id: id) : .undelete(id: id)
            case "waveform":
                let png = try rest.option("--png")
                let width = try rest.number("--width", in: 1...16_384).map { Int($0) } ?? 600
                let height = try rest.number("--height", in: 1...16_384).map { Int($0) } ?? 64
                let played = try rest.number("--played", in: 0...1) ?? 0
                let style = try rest.option("--style") ?? "bars"
                let dark = rest.flag("--dark")
                let force = rest.flag("--force")
                let input = try rest.positional(tr("FILE or ID"))
                try rest.finish()
                guard let png else { throw UsageError(tr("'waveform' needs --png OUT.png")) }
                guard ["bars", "line"].contains(style) else { throw UsageError(tr("--style is bars or line, not '{style}'", ["style": style])) }
                return .waveform(input: input, png: png, width: width, height: height, played: played, style: style, dark: dark,
                                 force: force)
            case "export":
                let force = rest.flag("--force")
                let format = try rest.option("--format")
                let id = try rest.positional("ID")
                let path = try rest.positional("PATH")
                try rest.finish()
                if let format, !["opus", "mp3", "wav"].contains(format) {
                    throw UsageError(tr("--format is opus, mp3 or wav, not '{format}'", ["format": format]))
                }
                return .export(id: id, path: path, force: force, format: format)
            case "levels":
                let json = rest.flag("--json")
                let path = try rest.positional("FILE")
                try rest.finish()
                guard json else { throw UsageError(tr("'levels' prints JSON only: add --json")) }
                return .levels(path: path)
            case "account":
                let action = try rest.positional(tr("login, logout, status or recover"))
                switch action {
                case "login":
                    let homeserver = try rest.option("--homeserver")
                    let user = try rest.option("--user")
                    try rest.finish()
                    guard let homeserver else { throw UsageError(tr("'account login' needs --homeserver URL (or a server name)")) }
                    guard let user else { throw UsageError(tr("'account login' needs --user NAME")) }
                    return .accountLogin(homeserver: homeserver, user: user)
                case "logout":
                    try rest.finish()
                    return .accountLogout
                case "status":
                    let json = rest.flag("--json")
                    try rest.finish()
                    return .accountStatus(json: json)
                case "recover":
                    let new = rest.flag("--new")
                    try rest.finish()
                    return .accountRecover(new: new)
                default:
                    throw UsageError(tr("'account' takes login, logout, status or recover, not '{action}'", ["action": action]))
                }
            case "dm":
                let user = try rest.positional("USER_ID")
                try rest.finish()
                return .directChat(userID: user)
            case "accept-identity":
                let user = try rest.positional("USER_ID")
                try rest.finish()
                return .acceptIdentity(userID: user)
            case "encryption":
                let action = try rest.positional("install")
                try rest.finish()
                guard action == "install" else {
                    throw UsageError(tr("'encryption' takes install, not '{action}'", ["action": action]))
                }
                return .encryptionInstall
            case "rooms":
                let json = rest.flag("--json")
                try rest.finish()
                return .rooms(json: json)
            case "join", "leave":
                let room = try rest.positional("ROOM_ID")
                try rest.finish()
                return first == "join" ? .join(roomID: room) : .leave(roomID: room)
            case "send":
                let withTranscript = rest.flag("--with-transcript")
                let id = try rest.positional("ID")
                let room = try rest.positional("ROOM_ID")
                try rest.finish()
                return .send(id: id, roomID: room, withTranscript: withTranscript)
            case "sync":
                let once = rest.flag("--once")
                try rest.finish()
                return .sync(once: once)
            case "transcriber":
                let action = try rest.positional(tr("enable, disable or status"))
                switch action {
                case "enable":
                    let language = try rest.option("--language")
                    try rest.finish()
                    if let language, TranscriptionLanguage(setting: language) == nil {
                        throw UsageError(tr("--language is en, auto or a language's code (de, fr…), not '{language}'",
                                            ["language": language]))
                    }
                    return .transcriberEnable(language: language)
                case "disable":
                    try rest.finish()
                    return .transcriberDisable
                case "status":
                    let json = rest.flag("--json")
                    try rest.finish()
                    return .transcriberStatus(json: json)
                default:
                    throw UsageError(tr("'transcriber' takes enable, disable or status, not '{action}'", ["action": action]))
                }
            case "transcribe":
                let all = rest.flag("--all")
                var ids: [String] = []
                while let id = try? rest.positional("ID") { ids.append(id) }
                try rest.finish()
                guard all != !ids.isEmpty else { throw UsageError(tr("'transcribe' takes message IDs or --all")) }
                return .transcribe(ids: ids, all: all)
            case "search":
                let json = rest.flag("--json")
                var words: [String] = []
                while let word = try? rest.positional("WORDS") { words.append(word) }
                try rest.finish()
                guard !words.isEmpty else { throw UsageError(tr("'search' needs WORDS to find")) }
                return .search(words: words.joined(separator: " "), json: json)
            case let option where option.hasPrefix("-"):
                return .usageError(tr("unknown option '{option}'", ["option": option]))
            default:
                return .usageError(tr("unknown command '{command}'", ["command": first]))
            }
        } catch let error as UsageError {
            return .usageError(error.reason)
        } catch {
            return .usageError("\(error)")
        }
    }

    /// The files the request writes through `ExportTarget` (which may be
    /// new names that are not UTF-8).
    var writtenPaths: [String] {
        switch self {
        case .export(_, let path, _, _): return [path]
        case .waveform(_, let png, _, _, _, _, _, _): return [png]
        default: return []
        }
    }
}
