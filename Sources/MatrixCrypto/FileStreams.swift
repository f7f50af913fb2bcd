import Foundation

/// A file read in chunks of AttachmentCipher.chunkSize.
final class FileReader {
    private let handle: FileHandle
    private let path: String

    init(_ url: URL) throws(CryptoError) {
        path = url.path
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw CryptoError.cannotRead(path: url.path, reason: Self.reason(error))
        }
    }

    deinit { try? handle.close() }

    /// The next chunk, nil at the end.
    func next() throws(CryptoError) -> Data? {
        do {
            let chunk = try handle.read(upToCount: AttachmentCipher.chunkSize)
            return chunk?.isEmpty == false ? chunk : nil
        } catch {
            throw CryptoError.cannotRead(path: path, reason: Self.reason(error))
        }
    }

    static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}

/// A file created (or emptied) with mode 0600 and written in order.
final class FileWriter {
    private let handle: FileHandle
    private let path: String
    private var closed = false

    init(_ url: URL) throws(CryptoError) {
        path = url.path
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CryptoError.cannotWrite(path: url.path, reason: String(cString: strerror(errno)))
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    deinit { if !closed { try? handle.close() } }

    func write(_ data: Data) throws(CryptoError) {
        do { try handle.write(contentsOf: data) } catch {
            throw CryptoError.cannotWrite(path: path, reason: FileReader.reason(error))
        }
    }

    /// Flushed to the disk, then closed.
    func close() throws(CryptoError) {
        guard !closed else { return }
        closed = true
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw CryptoError.cannotWrite(path: path, reason: FileReader.reason(error))
        }
    }
}
