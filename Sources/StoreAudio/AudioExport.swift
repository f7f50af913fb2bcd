import AudioEngine
import Foundation
import Localization
import MessageStore

extension MessageStore {
    /// Writes a message's audio to `path` as `format` (by default the one the
    /// path's extension names, else the message's own); an existing file is
    /// replaced only when asked. Blocks while transcoding: see `exportSource`
    /// and `writeExport` to do that part off the main thread.
    public func export(_ id: String, to path: String, format: AudioFormat? = nil,
                       overwrite: Bool = false) throws(StoreError) {
        try Self.writeExport(from: try exportSource(id), to: path, format: format, overwrite: overwrite)
    }

    /// Writes `source` to `path` as `format`: audio already in that format
    /// (by its content, not its name) is a copy of the file's bytes,
    /// unchanged; other audio is transcoded (`progress` gets 0…1 on the
    /// calling thread). Only a regular file is written or replaced, never in
    /// place (see `ExportWriter`, `ExportTarget`). Any thread; touches no
    /// database. The file gets ordinary permissions (0666 less the umask),
    /// not the store's 0600: it is meant for someone else.
    public static func writeExport(from source: String, to path: String, format: AudioFormat? = nil,
                                   overwrite: Bool = false, progress: (Double) -> Void = { _ in }) throws(StoreError) {
        // Judged by what the audio is, not by its file's name.
        let conversion = AudioContent(path: source).conversion(asked: format, target: path)
        try ExportWriter.write(to: path, overwrite: overwrite) { file throws(StoreError) in
            if let conversion {
                try file.transcode(source, format: conversion, progress: progress)
            } else {
                try file.copy(from: source, progress: progress)
            }
        }
    }
}

extension ExportWriter {
    /// `source` decoded and encoded as `format` into the temporary file.
    func transcode(_ source: String, format: AudioFormat, progress: (Double) -> Void = { _ in }) throws(StoreError) {
        do {
            try Transcoder.transcode(source, to: partialPath, format: format, progress: progress,
                                     isCancelled: { self.isAbandoned })
        } catch {
            switch error {
            case .cancelled: throw interrupted
            case .diskFull: throw writeFailure(ENOSPC)
            case .cannotWrite(_, let detail):  // GStreamer's sentence names the file it was given
                throw .file(path: target, detail: tr("cannot be written ({reason})",
                                                        ["reason": detail.replacingOccurrences(of: partialPath, with: target)]))
            default:  // never the temporary name: the user knows only their own
                throw .file(path: target, detail: error.description.replacingOccurrences(of: partialPath, with: target))
            }
        }
    }
}
