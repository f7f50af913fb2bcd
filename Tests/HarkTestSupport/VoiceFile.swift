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
