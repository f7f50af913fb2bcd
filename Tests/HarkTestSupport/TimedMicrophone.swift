import CTimeCode
import Foundation

/// A test microphone that keeps time: the default source of a private
/// PulseAudio server, fed in real time (10 ms at a time, never blocking) with
/// a signal that encodes its own time, so a recording can be laid on the
/// wall clock to the millisecond (`align`).
///
/// `module-pipe-source` reads its pipe only while some client records from
/// it, so one listener (`parec`) stays connected for the microphone's whole
/// life; otherwise the pipe would fill and the source would deliver old sound.
/// (A null sink's monitor cannot serve here: it delivers in chunks of the
/// playing client's latency, up to seconds late.)
public final class TimedMicrophone: @unchecked Sendable {
    public static let rate = 16_000
    public static let sourceName = "hark_timed_mic"
    /// Samples written each time: 10 ms.
    private static let chunk = rate / 100

    /// The whole signal, from its first sample.
    public let reference: [Int16]
    /// The same as floats, as the aligner compares it (made once: 300 s of it).
    private let referenceSignal: [Float]
    /// The wall-clock time (seconds since 1970) at which sample 0 was captured.
    public private(set) var startTime: Double = 0
    private let fifo: String
    private var descriptor: Int32 = -1
    private var listener: ChildProcess?
    private var writer: Thread?
    private let lock = NSLock()
    private var running = true
    private var overflowed = 0

    /// Loads the source into `server`, makes it the default and starts feeding it.
    /// `seconds`: how long the signal runs (then silence).
    public init(server: PulseAudioServer, seconds: Int = 300) throws {
        var samples = [Int16](repeating: 0, count: seconds * Self.rate)
        samples.withUnsafeMutableBufferPointer { hark_time_code_fill($0.baseAddress, $0.count, Int32(Self.rate)) }
        reference = samples
        referenceSignal = samples.map { Float($0) / 32768 }
        fifo = server.folder.path("timed-mic.fifo")
        let pulse = server.clientEnvironment
        let (loaded, output) = try ChildProcess.run("/usr/bin/pactl", [
            "load-module", "module-pipe-source", "source_name=\(Self.sourceName)", "file=\(fifo)",
            "format=s16le", "rate=\(Self.rate)", "channels=1",
            "source_properties=device.description=Hark_Timed_Microphone",
        ], environment: pulse, seconds: 15)
        guard loaded == 0 else { throw ServerFailed(output: "module-pipe-source: \(output)") }
        let (defaulted, message) = try ChildProcess.run("/usr/bin/pactl", ["set-default-source", Self.sourceName],
                                                        environment: pulse, seconds: 15)
        guard defaulted == 0 else { throw ServerFailed(output: message) }
        descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw ServerFailed(output: "cannot open \(fifo): errno \(errno)") }
        listener = try ChildProcess("/bin/sh", ["-c",
            "exec /usr/bin/parec --device=\(Self.sourceName) --latency-msec=10 --raw >/dev/null"], environment: pulse)
        startTime = Self.now()
        let thread = Thread { [self] in feed() }
        thread.qualityOfService = .userInteractive
        writer = thread
        thread.start()
        // Returns once the source delivers: half a second of it read by a client.
        let (status, read) = try ChildProcess.run("/bin/sh", ["-c",
            "/usr/bin/parec --device=\(Self.sourceName) --latency-msec=10 --raw | head -c \(Self.rate) >/dev/null"],
            environment: pulse, seconds: 15)
        guard status == 0 else { throw ServerFailed(output: "the timed microphone never delivered: \(read)") }
    }

    deinit { stop() }

    public func stop() {
        lock.lock()
        running = false
        lock.unlock()
        while writer?.isExecuting == true { usleep(5_000) }
        writer = nil
        listener = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// How many 10 ms writes found the pipe full (and were dropped): more than
    /// none means the listener or the server fell behind.
    public var overflows: Int {
        lock.lock()
        defer { lock.unlock() }
        return overflowed
    }

    /// The wall clock now (seconds since 1970), as the signal is timed.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Writes chunk n once its 10 ms have passed, as a microphone delivers
    /// what it captured; a late wake-up writes every chunk now due.
    private func feed() {
        var next = 0
        while true {
            lock.lock()
            let keepGoing = running
            lock.unlock()
            guard keepGoing else { return }
            let due = Int((Self.now() - startTime) * Double(Self.rate)) / Self.chunk
            while next < due {
                let start = next * Self.chunk
                var block = [Int16](repeating: 0, count: Self.chunk)
                if start + Self.chunk <= reference.count {
                    block = Array(reference[start..<start + Self.chunk])
                }
                let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    lock.lock()
                    overflowed += 1
                    lock.unlock()
                }
                next += 1
            }
            let wake = startTime + Double((next + 1) * Self.chunk) / Double(Self.rate)
            let wait = wake - Self.now()
            if wait > 0 { usleep(useconds_t(wait * 1e6)) }
        }
    }

    // MARK: Alignment

    /// Where a recording lies on the wall clock.
    public struct Alignment: CustomStringConvertible {
        /// The capture time of its first and last sample (seconds since 1970).
        public let firstSample: Double
        public let lastSample: Double
        /// Places (seconds into the recording) where it does not continue the
        /// signal it started on: a dropout, or sound swallowed.
        public let breaks: [Double]
        /// How well its start and its end matched the signal (0…1).
        public let startMatch: Double
        public let endMatch: Double

        public var description: String {
            String(format: "first sample %.3f, last %.3f, start match %.2f, end match %.2f, breaks %@",
                   firstSample, lastSample, startMatch, endMatch, breaks.map { String(format: "%.2f", $0) }.description)
        }
    }

    /// Decodes `path` (any audio file GStreamer reads) and lays it on the
    /// signal. `near`: the wall-clock time around which it started (within 2 s).
    public func align(_ path: String, near: Double) throws -> Alignment {
        let recording = try Self.decode(path, in: URL(fileURLWithPath: fifo).deletingLastPathComponent().path)
        let rate = Double(Self.rate)
        let window = min(Self.rate / 4, recording.count / 2)  // 250 ms
        guard window >= Self.rate / 20 else { throw ServerFailed(output: "the recording is too short to align") }
        let signal = referenceSignal
        func locate(_ from: Int, around expected: Int, within spread: Int) -> (offset: Int, match: Double) {
            Self.locate(recording, from: from, window: window, in: signal, around: expected, within: spread)
        }
        let expected = Int((near - startTime) * rate)
        let start = locate(0, around: expected, within: 2 * Self.rate)
        // Every quarter second inside must continue from there, to the millisecond.
        var breaks: [Double] = []
        var position = Self.rate / 4
        while position + window <= recording.count {
            let found = locate(position, around: start.offset + position, within: Self.rate / 10)
            if found.match < 0.5 || abs(found.offset - (start.offset + position)) > Self.rate / 1000 {
                breaks.append(Double(position) / rate)
            }
            position += Self.rate / 4
        }
        let endFrom = recording.count - window
        let end = locate(endFrom, around: start.offset + endFrom, within: Self.rate / 2)
        return Alignment(firstSample: startTime + Double(start.offset) / rate,
                         lastSample: startTime + Double(end.offset - endFrom + recording.count) / rate,
                         breaks: breaks, startMatch: start.match, endMatch: end.match)
    }

    /// Where a recording with one pause lies on the wall clock.
    public struct PausedAlignment: CustomStringConvertible {
        public let firstSample: Double
        /// The capture time just after the last sample before the pause, and
        /// of the first sample after it.
        public let pausedAt: Double
        public let resumedAt: Double
        public let lastSample: Double
        /// Breaks inside either piece (dropouts), in seconds into the recording.
        public let breaks: [Double]
        public var description: String {
            String(format: "first sample %.3f, paused at %.3f, resumed at %.3f, last %.3f, breaks %@",
                   firstSample, pausedAt, resumedAt, lastSample, breaks.map { String(format: "%.2f", $0) }.description)
        }
    }

    /// Lays a recording made of two pieces (a pause between) on the signal:
    /// the first starts near `near`, the second near `resumedNear`.
    public func alignPaused(_ path: String, near: Double, resumedNear: Double) throws -> PausedAlignment {
        let recording = try Self.decode(path, in: URL(fileURLWithPath: fifo).deletingLastPathComponent().path)
        let signal = referenceSignal
        let rate = Self.rate, window = Self.rate / 4
        guard recording.count > 4 * window else { throw ServerFailed(output: "the recording is too short to align") }
        func locate(_ from: Int, _ expected: Int, _ spread: Int) -> (offset: Int, match: Double) {
            Self.locate(recording, from: from, window: window, in: signal, around: expected, within: spread)
        }
        // Piece one from the start, piece two from the end: each maps a
        // recording index i to the signal index (base + i).
        let first = locate(0, Int((near - startTime) * Double(rate)), 2 * rate).offset
        let endFrom = recording.count - window
        let resumedGuess = Int((resumedNear - startTime) * Double(rate))
        // The end lies after the resume by the length of piece two, which is unknown:
        // find it within the recording's length after the resume.
        let end = locate(endFrom, resumedGuess + recording.count / 2, recording.count / 2 + 2 * rate).offset
        let second = end - endFrom
        // The junction: where the recording stops fitting piece one and starts
        // fitting piece two, to the sample (least squared difference).
        var bestJunction = 0, bestError = Double.infinity
        var errorOne = [Double](repeating: 0, count: recording.count + 1)
        var errorTwo = [Double](repeating: 0, count: recording.count + 1)
        for i in 0..<recording.count {
            let one = first + i < signal.count ? Double(recording[i] - signal[first + i]) : 1
            let two = second + i >= 0 && second + i < signal.count ? Double(recording[i] - signal[second + i]) : 1
            errorOne[i + 1] = errorOne[i] + one * one
            errorTwo[i + 1] = errorTwo[i] + two * two
        }
        for junction in 0...recording.count {
            let error = errorOne[junction] + (errorTwo[recording.count] - errorTwo[junction])
            if error < bestError { bestError = error; bestJunction = junction }
        }
        // Dropouts inside either piece.
        var breaks: [Double] = []
        var position = 0
        while position + window <= recording.count {
            let inFirst = position + window <= bestJunction, inSecond = position >= bestJunction
            if inFirst || inSecond {
                let expected = (inFirst ? first : second) + position
                let found = locate(position, expected, rate / 10)
                if found.match < 0.5 || abs(found.offset - expected) > rate / 1000 { breaks.append(Double(position) / Double(rate)) }
            }
            position += rate / 4
        }
        func wall(_ index: Int) -> Double { startTime + Double(index) / Double(rate) }
        return PausedAlignment(firstSample: wall(first), pausedAt: wall(first + bestJunction),
                               resumedAt: wall(second + bestJunction), lastSample: wall(second + recording.count),
                               breaks: breaks)
    }


    /// Where `window` samples of `recording` from `from` on lie in `signal`,
    /// searched within `spread` of `expected`; how well they match (0…1).
    private static func locate(_ recording: [Float], from: Int, window: Int, in signal: [Float],
                               around expected: Int, within spread: Int) -> (offset: Int, match: Double) {
        var match = 0.0
        let offset = signal.withUnsafeBufferPointer { whole in
            recording.withUnsafeBufferPointer { clip in
                hark_time_code_best_offset(whole.baseAddress, whole.count, clip.baseAddress! + from, window,
                                           expected - spread, expected + spread, &match)
            }
        }
        return (offset, match)
    }

    /// The file's audio as mono samples at `rate`, decoded by gst-launch-1.0 (the reference tool).
    static func decode(_ path: String, in folder: String) throws -> [Float] {
        let raw = folder + "/decoded-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try gstLaunch("filesrc location=\(path) ! decodebin ! audioconvert ! audioresample "
                      + "! audio/x-raw,format=S16LE,rate=\(rate),channels=1 ! filesink location=\(raw)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { bytes in
            bytes.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 }
        }
    }
}
