import Foundation

/// Four seconds of real Ogg Opus in `folder` (`voice.ogg`): a second of
/// silence, a second loud, two seconds quiet. Its path.
public func oggVoiceFile(in folder: ScratchFolder) throws -> String {
    let wav = folder.path("voice.wav"), ogg = folder.path("voice.ogg")
    try WAVFile.write([.init(seconds: 1, amplitude: 0), .init(seconds: 1, amplitude: 0.9),
                       .init(seconds: 2, amplitude: 0.05)], rate: 48_000, to: URL(fileURLWithPath: wav))
    try gstLaunch("filesrc location=\(wav) ! wavparse ! audioconvert ! audioresample "
                  + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(ogg)")
    return ogg
}

/// A steady tone of `seconds` as Ogg Opus, `name` in `folder`: a message
/// long enough to be still playing after a few steps of a test.
public func oggTone(_ name: String, seconds: Int, in folder: ScratchFolder) throws -> String {
    let path = folder.path(name)
    try gstLaunch("audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 volume=0.3 "
                  + "! audio/x-raw,rate=48000,channels=1 ! opusenc ! oggmux ! filesink location=\(path)")
    return path
}
