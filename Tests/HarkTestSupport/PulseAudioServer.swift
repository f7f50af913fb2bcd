import Foundation

/// A private PulseAudio server with one null sink ("hark_null") whose monitor
/// is the default source: what is played into the sink is what a recording
/// from the default microphone captures. Started and stopped by the test
/// itself, in a scratch folder; nothing of the user's sound setup is touched.
/// Used from one test thread (the main one) only; `@unchecked` so tests may
/// use it inside their main-actor blocks.
public final class PulseAudioServer: @unchecked Sendable {
    public let folder: ScratchFolder
    /// The daemon's process id, from its pid file.
    private let pid: pid_t
    private var players: [ChildProcess] = []

    public static let sinkName = "hark_null"
    public static var monitorName: String { sinkName + ".monitor" }

    public init() throws {
        folder = try ScratchFolder()
        let socket = folder.path("native")
        // Daemonized, with a pid file: PulseAudio closes every inherited
        // descriptor at start-up, which Foundation's Process takes for an
        // exit (and then blocks in waitpid), so it cannot be a direct child.
        let environment = ["XDG_RUNTIME_DIR": folder.url.path, "HOME": folder.url.path]
        let (started, log) = try ChildProcess.run("/usr/bin/pulseaudio", [
            "-n", "--daemonize=yes", "--exit-idle-time=-1", "--disable-shm=yes", "--use-pid-file=yes",
            "--log-level=error", "--log-target=stderr",
            "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
            "-L", "module-null-sink sink_name=\(Self.sinkName) sink_properties=device.description=Hark_Test_Sink",
        ], environment: environment, seconds: 30)
        let pidText = try? String(contentsOfFile: folder.path("pulse/pid"), encoding: .utf8)
        guard started == 0, let pid = pidText.flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
              FileManager.default.fileExists(atPath: socket) else {
            throw ServerFailed(output: log)
        }
        self.pid = pid
        let (status, output) = try ChildProcess.run("/usr/bin/pactl", ["set-default-source", Self.monitorName],
                                                    environment: clientEnvironment, seconds: 15)
        guard status == 0 else { throw ServerFailed(output: output) }
    }

    deinit {
        players.removeAll()
        stop()
    }

    /// What a client needs to find this server (and only this one).
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": "unix:\(folder.path("native"))"]
    }

    /// Plays a WAV file into the null sink, in the background, at low latency
    /// (the null sink otherwise renders in two-second blocks).
    public func play(_ wavPath: String) throws {
        players.append(try ChildProcess("/usr/bin/paplay", ["--latency-msec=20", "--device=\(Self.sinkName)", wavPath],
                                        environment: clientEnvironment))
    }

    /// Makes the monitor deliver from the first moment, as a real microphone
    /// does. An idle null sink's monitor sends its first audio about 2 s
    /// after the first low-latency stream connects, so a recording started
    /// sooner would miss its first second. A silent stream keeps the sink
    /// running; this returns once the monitor delivers.
    public func makeMonitorLive() throws {
        let pulse = clientEnvironment
        players.append(try ChildProcess("/bin/sh", ["-c",
            "exec /usr/bin/pacat --playback --latency-msec=20 --device=\(Self.sinkName) --raw --format=s16le "
            + "--rate=48000 --channels=1 </dev/zero"], environment: pulse))
        let (status, output) = try ChildProcess.run("/bin/sh", ["-c",
            "/usr/bin/parec --latency-msec=20 --device=\(Self.monitorName) --raw | head -c 9600 >/dev/null"],
            environment: pulse, seconds: 15)
        guard status == 0 else { throw ServerFailed(output: "the monitor never delivered: \(output)") }
    }

    /// Kills the server at once, as a crash or an unplugged device would.
    public func kill() {
        signal(SIGKILL)
    }

    public func stop() {
        signal(SIGTERM)
    }

    /// Whether the daemon still runs (it is not our child: ask the kernel).
    public var isRunning: Bool { Glibc.kill(pid, 0) == 0 }

    private func signal(_ number: Int32) {
        guard isRunning else { return }
        Glibc.kill(pid, number)
        let deadline = Date().addingTimeInterval(10)
        while isRunning && Date() < deadline { usleep(20_000) }
    }

    /// Speech, spoken by espeak-ng into a WAV file.
    /// `voice`: espeak-ng's voice (a language: "de", "es"); its default, English, when nil.
    public static func speech(_ text: String, to path: String, voice: String? = nil) throws {
        let (status, output) = try ChildProcess.run("/usr/bin/espeak-ng", (voice.map { ["-v", $0] } ?? []) + ["-w", path, text],
                                                    seconds: 60)
        guard status == 0 else { throw ServerFailed(output: "espeak-ng: \(output)") }
    }
}

public struct ServerFailed: Error, CustomStringConvertible {
    public let output: String
    public var description: String { "PulseAudio test server failed: \(output)" }
}
