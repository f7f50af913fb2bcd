import Foundation

/// What a player really played, as a listener would hear it: its output
/// goes, on a real clock (`sync=true`), into a file of raw samples that is
/// read back as loud and quiet stretches. `fdsink`, not `filesink`: a
/// flushing seek makes filesink start its file again.
public final class HeardAudio {
    public static let rate = 48_000
    public let path: String
    private let descriptor: Int32

    public init(in scratch: ScratchFolder, name: String = "heard.raw") throws {
        path = scratch.path(name)
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    deinit { close(descriptor) }

    /// The GStreamer sink description to play into.
    public var sink: String {
        "audioconvert ! audioresample ! audio/x-raw,format=S16LE,channels=1,rate=\(Self.rate) ! fdsink fd=\(descriptor) sync=true"
    }

    /// The loud (above −30 dBFS) and quiet stretches heard so far, in seconds of output, by 10 ms windows.
    public func stretches() throws -> [(loud: Bool, seconds: Double)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let window = Self.rate / 100
        var runs: [(loud: Bool, seconds: Double)] = []
        for start in stride(from: 0, to: samples.count - window, by: window) {
            let sum = samples[start..<start + window].reduce(0.0) { $0 + Double($1) * Double($1) }
            let loud = (sum / Double(window)).squareRoot() / 32768 > 0.0316  // −30 dBFS
            if let last = runs.last, last.loud == loud {
                runs[runs.count - 1].seconds += 0.01
            } else {
                runs.append((loud, 0.01))
            }
        }
        return runs
    }

    /// Tone bursts (−13 dBFS) of `burst` seconds with the `pauses` between them,
    /// over a faint hum (−53 dBFS), as a WAV file at `path`.
    public static func writeBursts(pauses: [Double], burst: Double = 1, to path: String) throws {
        var sections = [WAVFile.Section(seconds: burst, amplitude: 0.3)]
        for pause in pauses {
            sections.append(WAVFile.Section(seconds: pause, amplitude: 0.003, frequency: 120))
            sections.append(WAVFile.Section(seconds: burst, amplitude: 0.3))
        }
        try WAVFile.write(sections, rate: rate, to: URL(fileURLWithPath: path))
    }
}
