import Foundation
import Localization

/// What an engine's installer (scripts/lib/pinned-venv.sh's: `install-transcriber`,
/// `install-crypto-engine`) says on its standard error, read line by line:
/// how far the install is (a fraction of the whole and a sentence for the
/// window) and, when it failed, why, in a sentence. Pure text: the window
/// shows it (TranscriptionDialog), the tests feed it lines.
///
/// The installer starts each step with "INSTALLER: LOW-HIGH% what"
/// (the step's share of the whole); a download step's "what" begins
/// "downloading N files: …", and pip then says "Downloading NAME (SIZE)" as
/// each file starts and "Progress DONE of TOTAL" (bytes) as it comes, then
/// "Installing collected packages" once everything is downloaded.
public struct InstallProgress: Equatable, Sendable {
    /// How much of the install is done, 0…1; never goes back.
    public private(set) var fraction: Double = 0
    /// What is happening, as a sentence for the window.
    public private(set) var text = tr("Starting…")
    /// The installer said it is ready.
    public private(set) var isReady = false

    private var low = 0.0, high = 0.0
    private var what = ""
    private var fileCount = 0
    private var filesStarted = 0
    private var fileFraction = 0.0
    private var installing = false
    /// The last lines, for the failure's reason.
    private var recent: [String] = []

    /// How the installer's own lines start ("install-transcriber: ").
    private let prefix: String

    /// `installer`: its file name, which starts its own lines.
    public init(installer: String = "install-transcriber") {
        prefix = installer + ": "
    }
    /// Of a download step's fraction, the share that is downloading (the rest: unpacking and installing).
    private static let downloadShare = 0.9

    public mutating func read(_ line: String) {
        let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return }
        if !line.hasPrefix("Progress ") {
            recent.append(line)
            if recent.count > 60 { recent.removeFirst(recent.count - 60) }
        }
        if line.hasPrefix(prefix) {
            readInstallerLine(String(line.dropFirst(prefix.count)))
        } else if line.hasPrefix("Downloading ") || line.hasPrefix("Using cached ") {
            filesStarted += 1
            fileFraction = 0
        } else if line.hasPrefix("Progress "), let (done, total) = Self.progressBytes(line), total > 0 {
            fileFraction = min(1, Double(done) / Double(total))
        } else if line.hasPrefix("Installing collected packages") {
            installing = true
        } else {
            return
        }
        update()
    }

    /// Why the install failed, from what it said (call after it exited
    /// with a failure).
    public var failure: InstallFailure { InstallFailure(lines: recent, installer: String(prefix.dropLast(2))) }

    private mutating func readInstallerLine(_ rest: String) {
        if rest == "ready" {
            isReady = true
            fraction = 1
            text = tr("Ready.")
            return
        }
        // "LOW-HIGH% what"
        guard let percent = rest.firstIndex(of: "%"), let dash = rest[..<percent].firstIndex(of: "-"),
              let from = Double(rest[..<dash]), let to = Double(rest[rest.index(after: dash)..<percent]) else { return }
        low = from / 100
        high = max(low, to / 100)
        what = rest[rest.index(after: percent)...].trimmingCharacters(in: .whitespaces)
        fileCount = 0
        filesStarted = 0
        fileFraction = 0
        installing = false
        // "downloading N files: the engine…"
        let words = what.split(separator: " ", maxSplits: 3)
        if words.count >= 3, words[0] == "downloading", let count = Int(words[1]), words[2].hasPrefix("files") {
            fileCount = count
        }
    }

    private mutating func update() {
        var within = 0.0
        if fileCount > 0 {
            let finished = Double(max(0, filesStarted - 1)) + (filesStarted > 0 ? fileFraction : 0)
            within = installing ? Self.downloadShare : Self.downloadShare * min(1, finished / Double(fileCount))
        }
        fraction = max(fraction, min(1, low + (high - low) * within))
        text = sentence
    }

    /// The step in words: "Downloading the engine and the English model
    /// (about 200 MB): file 3 of 24…". The installer's steps each have their
    /// own whole sentences, to translate; a step it names otherwise is said
    /// in its own (English) words.
    private var sentence: String {
        if what.isEmpty { return tr("Starting…") }
        if fileCount > 0 {
            let subject = what.split(separator: ":", maxSplits: 1).dropFirst().first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? "files"
            let file = fileCount > 1 && filesStarted > 0 ? min(filesStarted, fileCount) : nil
            return Self.download(of: subject, installing: installing, file: file, of: fileCount)
        }
        if what.hasPrefix("creating a Python environment") { return tr("Preparing the engine…") }
        if what == "checking that the engine loads" || what == "checking that it loads" { return tr("Checking that the engine loads…") }
        if what == "joining the multilingual model's two halves" { return tr("Joining the multilingual model's two halves…") }
        let first = what.prefix(1).uppercased() + what.dropFirst()
        return first + "…"
    }

    /// A download step's sentence: downloading (file NUMBER of TOTAL, when
    /// there are several), or installing what was downloaded.
    private static func download(of subject: String, installing: Bool, file number: Int?, of total: Int) -> String {
        let values: KeyValuePairs<String, String> = ["number": LocaleNumbers.integer(number ?? 0), "total": LocaleNumbers.integer(total)]
        if subject.hasPrefix("the engine and the English model") {
            if installing { return tr("Installing the engine and the English model (about 200 MB)…") }
            return number == nil ? tr("Downloading the engine and the English model (about 200 MB)…")
                : tr("Downloading the engine and the English model (about 200 MB): file {number} of {total}…", values)
        }
        if subject.hasPrefix("the multilingual model") {
            if installing { return tr("Installing the multilingual model (about 145 MB)…") }
            return number == nil ? tr("Downloading the multilingual model (about 145 MB)…")
                : tr("Downloading the multilingual model (about 145 MB): file {number} of {total}…", values)
        }
        if subject.hasPrefix("the encryption engine") {
            return installing ? tr("Installing the encryption engine…") : tr("Downloading the encryption engine (about 1 MB)…")
        }
        if subject.hasPrefix("the package installer") {
            // "(pip 26.3)": the version the installer pins.
            let version = subject.split(separator: " ").last.map { String($0.dropLast()) } ?? ""
            if installing { return tr("Installing the package installer (pip {version})…", ["version": version]) }
            return tr("Downloading the package installer (pip {version})…", ["version": version])
        }
        if installing { return "Installing \(subject)…" }
        return "Downloading \(subject)" + (number.map { ": file \($0) of \(total)" } ?? "") + "…"
    }

    private static func progressBytes(_ line: String) -> (Int, Int)? {
        let words = line.split(separator: " ")
        guard words.count == 4, words[2] == "of", let done = Int(words[1]), let total = Int(words[3]) else { return nil }
        return (done, total)
    }
}

/// Why the engine could not be installed, as the window and the command
/// line say it.
public enum InstallFailure: Equatable, Sendable {
    case noNetwork
    case noDiskSpace
    /// A file was not the one pinned: nothing was installed.
    case unexpectedFiles
    case noPython
    case other(String)

    /// Reads the installer's last lines (`installer`: its name, which starts its own).
    public init(lines: [String], installer: String = "install-transcriber") {
        func said(_ needles: [String]) -> Bool {
            lines.contains { line in needles.contains { line.localizedCaseInsensitiveContains($0) } }
        }
        if said(["No space left on device", "Errno 28", "Disk quota exceeded", "Errno 122", "not enough disk space"]) {
            self = .noDiskSpace
        } else if said(["DO NOT MATCH THE HASHES", "does not match its pinned hash"]) {
            self = .unexpectedFiles
        } else if said(["NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
                        "Name or service not known", "Network is unreachable", "Connection refused", "No route to host",
                        "ConnectTimeoutError", "Read timed out", "ProxyError", "Connection reset", "Connection aborted",
                        "RemoteDisconnected", "IncompleteRead", "SSLError", "Could not fetch URL",
                        "(from versions: none)", "No matching distribution found"]) {
            // Every pin exists on PyPI: an index that offers none of them was not reached.
            self = .noNetwork
        } else if said(["python3 is not installed", "venv module is missing", "could not install python3-venv"]) {
            self = .noPython
        } else {
            let prefix = installer + ": "
            let reason = lines.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
                ?? lines.last { $0.hasPrefix("ERROR: ") }.map { String($0.dropFirst(7)) }
                ?? lines.last
                ?? tr("the installer ended without saying why")
            self = .other(reason)
        }
    }

    /// The engines installed this way.
    public enum Engine: Sendable {
        case transcription
        case encryption
    }

    /// One or two whole sentences (the transcription engine's).
    public var sentence: String { sentence(.transcription) }

    /// One or two whole sentences about `engine`.
    public func sentence(_ engine: Engine) -> String {
        switch (self, engine) {
        case (.noNetwork, .transcription):
            return tr("The transcription engine could not be downloaded: this computer seems to be offline, "
                      + "or the download server cannot be reached. Check the connection and try again.")
        case (.noNetwork, .encryption):
            return tr("The encryption engine could not be downloaded: this computer seems to be offline, "
                      + "or the download server cannot be reached. Check the connection and try again.")
        case (.noDiskSpace, .transcription):
            return tr("There is not enough free disk space for the transcription engine. "
                      + "Free some space (it needs about 600 MB) and try again.")
        case (.noDiskSpace, .encryption):
            return tr("There is not enough free disk space for the encryption engine. "
                      + "Free some space (it needs about 30 MB) and try again.")
        case (.unexpectedFiles, _):
            return tr("The downloaded files were not the expected ones, so nothing was installed. Try again later.")
        case (.noPython, .transcription):
            return tr("Transcription needs Python 3 and its venv module: install the python3-venv package, then try again.")
        case (.noPython, .encryption):
            return tr("Encryption needs Python 3 and its venv module: install the python3-venv package, then try again.")
        case (.other(let reason), _):
            let trimmed = reason.trimmingCharacters(in: CharacterSet(charactersIn: " .;"))
            return engine == .transcription
                ? tr("The transcription engine could not be installed ({reason}). Try again.", ["reason": trimmed])
                : tr("The encryption engine could not be installed ({reason}). Try again.", ["reason": trimmed])
        }
    }
}
