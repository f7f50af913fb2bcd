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

    static var usage: String { commands + "\n\n" + recordKey }

    // TRANSLATORS: the end of `hark --help`; keep 'hark record --toggle' and the lines at most 72 characters.
    private static var recordKey: String { tr("""
        A record key: 'hark record --toggle' starts a recording in Hark's window
        (opening it), or stops the one it records; bind it to a key in GNOME
        Settings, Keyboard, Custom Shortcuts.
        """) }

    private static var commands: String { tr("""
        Usage: hark [COMMAND] [OPTIONS]

        Record, play and keep voice messages.

        With no command, Hark opens its window (or shows the one already open).

        Commands:
          record [--output FILE.ogg] [--duration SECONDS] [--source DESCRIPTION] [--title T] [--raw]
                              Record from the default microphone (or a GStreamer
                              source description) into the message store, printing
                              the new message's id, or to an Ogg/Opus file;
                              Ctrl+C or the duration ends it cleanly. Background
                              noise is reduced and the voice's level evened out
                              unless --raw is given
          play FILE|ID [--start SECONDS] [--rate R] [--skip-silence]
                              Play a file or a message to the default output
                              (R from 0.5 to 2); --skip-silence shortens the long
                              pauses and prints the time saved
          list [--json] [--limit N]
                              List the messages, newest first (the first N)
          import FILE...      Add audio files to the messages (a chained Ogg
                              file is refused: convert it to one stream first)
          rename ID TITLE     Rename a message
          delete ID           Delete a message (undo with undelete)
          undelete ID         Bring a deleted message back
          export ID PATH [--format opus|mp3|wav] [--force]
                              Write a message's audio to PATH as Ogg Opus, MP3
                              or WAV; the format follows PATH's extension unless
                              given; audio already in it (by its content) is
                              copied unchanged, other audio converted
                              (--force replaces a regular file; a device, link
                              or folder is never replaced)
          waveform FILE|ID --png OUT [--width W] [--height H] [--played F]
                   [--style bars|line] [--dark] [--force]
                              Draw a file's or a message's waveform to a PNG
                              (a message's stored levels are used: no decoding;
                              --force replaces an existing file)
          levels FILE --json  Print the file's duration and its 50 ms RMS and peak
                              levels (dBFS, floored at -100) as JSON
          account login --homeserver URL --user NAME
                              Sign in to a Matrix account (URL, server name or
                              Matrix ID; the password from standard input, or
                              asked for); the token is kept in the keyring only
          account logout      Sign out (the server ends the session)
          account status [--json]
                              Who is signed in, this device, whether it is
                              cross-signed, and how many messages wait
          account recover [--new]
                              Verify this device with the account's recovery key
                              or passphrase (from standard input), or with --new
                              make the account's identity and print its new
                              recovery key once (keep it safe; the password,
                              when the server asks, from HARK_PASSWORD)
          encryption install  Install the engine Hark encrypts with (vodozemac,
                              about 1 MB, progress on standard error)
          dm USER_ID          Find or start the direct chat with someone and
                              print its room id (encrypted when they have keys)
          accept-identity USER_ID
                              Accept the new identity of someone whose identity
                              changed ('hark sync' says so): their devices are
                              trusted again and get room keys
          rooms [--json]      The joined rooms and invitations (with --json,
                              identity_changed: members whose identity changed)
          join ROOM_ID        Join a room, or accept its invitation
          leave ROOM_ID       Leave a room, or decline its invitation
          send ID ROOM_ID [--with-transcript]
                              Send a message into a room as a voice message and
                              print its event id; exit status 3 when the server
                              cannot be reached (it stays queued). With
                              --with-transcript its transcript goes inside the
                              event, for people and clients that read rather than
                              listen; a message without one is not sent (exit
                              status 1: 'hark transcribe ID' first)
          sync [--once]       Send what is queued, then receive the rooms' voice
                              messages (once, or until Ctrl+C)
          transcriber enable [--language en|auto|CODE]
                              Transcribe messages on this computer: installs the
                              engine and model once (about 200 MB, progress on
                              standard error), then new recordings, imports and
                              received messages are transcribed as they are
                              saved ('record', 'import' and 'sync' do it before
                              they end; Ctrl+C leaves it queued)
          transcriber disable Stop transcribing (transcripts made are kept)
          transcriber status [--json]
                              Whether it is on, installed, and what waits
          transcribe ID...|--all
                              Transcribe messages now (--all: every one without
                              a transcript, those queued included), waiting, and
                              print each transcript
          search WORDS [--json]
                              The messages whose title or transcript has the
                              words (numbers as digits or words: 10 or ten)
          gallery [--still]   Open a window showing every widget, for review
                              (--still: without moving sample data)
          help, -h, --help    Show this help and exit
          --version           Print the version and exit

        After '--', nothing is taken for an option: 'hark import -- -take.ogg'.

        Exit status: 0 on success, 1 on failure, 2 on a usage error, 3 when a
        message is queued because the server cannot be reached.
        """) }
}

struct UsageError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// The arguments after a command: options are taken out by name, then the
/// positionals in order; `finish()` rejects whatever is left. `--` ends the
/// options: everything after it is a positional, even `-file.ogg`.
struct ArgumentList {
    private var items: [String]
    /// What came after `--`.
    private var literals: [String]
    private let command: String

    init(_ items: [String], command: String) {
        if let end = items.firstIndex(of: "--") {
            self.items = Array(items[..<end])
            literals = Array(items[(end + 1)...])
        } else {
            self.items = items
            literals = []
        }
        self.command = command
    }

    /// `--name VALUE` or `--name=VALUE`; nil when absent. A VALUE that is
    /// itself an option (`--title --raw`) is refused rather than taken: the
    /// value was forgotten. One that truly starts with `--` goes after `=`.
    mutating func option(_ name: String) throws(UsageError) -> String? {
        if let index = items.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            return String(items.remove(at: index).dropFirst(name.count + 1))
        }
        guard let index = items.firstIndex(of: name) else { return nil }
        guard index + 1 < items.count else { throw UsageError(tr("{option} needs a value", ["option": name])) }
        let value = items[index + 1]
        if value.hasPrefix("--") {
            throw UsageError(tr("{option} needs a value, not the option '{value}' (for a value starting with '--', write {option}={value})",
                                ["option": name, "value": value]))
        }
        items.remove(at: index)
        return items.remove(at: index)
    }

    /// A plain decimal number (`2`, `0.5`, `1e3`): not the hexadecimal
    /// (`0x1p3`), `inf` or `nan` that `Double(_:)` also reads.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard DecimalNumber.isPlain(text), let value = Double(text), value.isFinite, range.contains(value) else {
            if range.upperBound == .greatestFiniteMagnitude {
                throw UsageError(tr("{option} takes a number of at least {minimum}, not '{text}'",
                                    ["option": name, "minimum": range.lowerBound.formatted(), "text": text]))
            }
            throw UsageError(tr("{option} takes a number from {minimum} to {maximum}, not '{text}'",
                                ["option": name, "minimum": range.lowerBound.formatted(),
                                 "maximum": range.upperBound.formatted(), "text": text]))
        }
        return value
    }

    mutating func flag(_ name: String) -> Bool {
        guard let index = items.firstIndex(of: name) else { return false }
        items.remove(at: index)
        return true
    }

    mutating func positional(_ label: String) throws(UsageError) -> String {
        if let index = items.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }) {
            return items.remove(at: index)
        }
        guard !literals.isEmpty else {
            // TRANSLATORS: {argument} names what is missing, as `hark --help` writes it: FILE, ID, "FILE or ID".
            throw UsageError(tr("'{command}' needs {argument}", ["command": command, "argument": label]))
        }
        return literals.removeFirst()
    }

    func finish() throws(UsageError) {
        if let option = items.first(where: { $0.hasPrefix("-") }) {
            throw UsageError(tr("unknown option '{option}' for '{command}'", ["option": option, "command": command]))
        }
        if let extra = items.first ?? literals.first {
            throw UsageError(tr("unexpected argument '{argument}' for '{command}'", ["argument": extra, "command": command]))
        }
    }
}

private extension Double {
    func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
