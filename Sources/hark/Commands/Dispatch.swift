import Foundation
import GLibSupport
import Identity
import Localization

/// What the command line asked for, read from the process's own arguments.
/// A name that is not UTF-8 and names nothing yet is good only as a file
/// to write (an export's PATH, a waveform's PNG).
func requestFromArguments() -> CommandLineRequest {
    let arguments: [String], missing: [String: String]
    switch RawArguments.read() {
    case .success(let read): (arguments, missing) = read
    case .failure(let error): return .usageError(error.reason)
    }
    let request = CommandLineRequest.parse(arguments)
    if let name = arguments.first(where: { missing[$0] != nil && !request.writtenPaths.contains($0) }),
       let shown = missing[name] {
        return .usageError(tr("'{name}' is not valid UTF-8 and names no file that exists", ["name": shown]))
    }
    return request
}

/// Runs one request and returns the process's exit status. (A function of
/// its own rather than top-level code: swift-frontend 6.3.1's optimiser
/// crashed on a top-level `switch` over a global request.)
@MainActor
func run(_ request: CommandLineRequest) -> Int32 {
    switch request {
    case .gui:
        return WindowLauncher.replaceProcess(with: [])
    case .background:
        return WindowLauncher.replaceProcess(with: ["--background"])
    case .gallery(let still):
        return WindowLauncher.replaceProcess(with: still ? ["gallery", "--still"] : ["gallery"])
    case .recordToggle:
        return WindowLauncher.replaceProcess(with: ["record", "--toggle"])
    case .help:
        print(CommandLineRequest.usage)
        return 0
    case .version:
        print("hark \(AppInfo.version)")
        return 0
    case .record(let output?, let duration, let source, _, let raw):
        return runRecord(output: output, duration: duration, source: source, raw: raw)
    case .record(nil, let duration, let source, let title, let raw):
        return runRecordIntoStore(duration: duration, source: source, title: title, raw: raw)
    case .play(let target, let start, let rate, let skipSilence):
        return runPlay(target: target, start: start, rate: rate, skipSilence: skipSilence)
    case .list(let json, let limit):
        return runList(json: json, limit: limit)
    case .importFiles(let files):
        return runImport(files)
    case .rename(let id, let title):
        return runRename(id: id, title: title)
    case .delete(let id):
        return runDelete(id: id)
    case .undelete(let id):
        return runUndelete(id: id)
    case .export(let id, let path, let force, let format):
        return runExport(id: id, path: path, force: force, format: format)
    case .waveform(let input, let png, let width, let height, let played, let style, let dark, let force):
        return runWaveform(input: input, png: png, width: width, height: height, played: played, style: style, dark: dark,
                           force: force)
    case .levels(let path):
        return runLevels(path: path)
    case .accountLogin(let homeserver, let user):
        return runAccountLogin(homeserver: homeserver, user: user)
    case .accountLogout:
        return runAccountLogout()
    case .accountRecover(let new):
        return runAccountRecover(new: new)
    case .directChat(let userID):
        return runDirectChat(userID: userID)
    case .acceptIdentity(let userID):
        return runAcceptIdentity(userID: userID)
    case .encryptionInstall:
        return runEncryptionInstall()
    case .accountStatus(let json):
        return runAccountStatus(json: json)
    case .rooms(let json):
        return runRooms(json: json)
    case .join(let roomID):
        return runMembership(roomID: roomID, join: true)
    case .leave(let roomID):
        return runMembership(roomID: roomID, join: false)
    case .send(let id, let roomID, let withTranscript):
        return runSend(id: id, roomID: roomID, withTranscript: withTranscript)
    case .sync(let once):
        return runSync(once: once)
    case .transcriberEnable(let language):
        return runTranscriberEnable(language: language)
    case .transcriberDisable:
        return runTranscriberDisable()
    case .transcriberStatus(let json):
        return runTranscriberStatus(json: json)
    case .transcribe(let ids, let all):
        return runTranscribe(ids: ids, all: all)
    case .search(let words, let json):
        return runSearch(words: words, json: json)
    case .usageError(let reason):
        printFailure(tr("{reason} (see 'hark --help')", ["reason": reason]))
        return 2
    }
}
