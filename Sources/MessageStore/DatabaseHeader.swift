import Foundation

/// The 100-byte header of an SQLite file, rebuilt for a file whose own header
/// was overwritten or cut: everything in it can be derived or defaulted
/// except the page size, which is found from the pages themselves. Pure.
enum DatabaseHeader {
    static let length = 100
    static let magic = Data("SQLite format 3\0".utf8)

    /// The page sizes for which the file's first pages look like b-tree
    /// pages, most likely first: SQLite's default 4096, then the smallest.
    /// `fileStart` is the file's first bytes (at least two pages' worth when
    /// the file has them).
    static func plausiblePageSizes(fileStart: Data, fileSize: Int) -> [Int] {
        let candidates = [4096, 512, 1024, 2048, 8192, 16384, 32768, 65536]
        return candidates.filter { size in
            fileSize >= size && fileSize % size == 0
                && isBTreePage(fileStart, pageStart: 0, headerAt: length, pageSize: size, pageCount: fileSize / size)
                && (fileSize == size || fileStart.count < 2 * size || isPlausiblePage2(fileStart, pageSize: size))
        }
    }

    /// A header for a file of `pageCount` pages of `pageSize` bytes, UTF-8,
    /// in WAL mode when `writeAheadLog` (so that a kept -wal file is read).
    static func rebuilt(pageSize: Int, pageCount: Int, writeAheadLog: Bool) -> Data {
        var header = Data(count: length)
        header.replaceSubrange(0..<16, with: magic)
        put16(&header, 16, pageSize == 65536 ? 1 : pageSize)
        header[18] = writeAheadLog ? 2 : 1
        header[19] = writeAheadLog ? 2 : 1
        header[21] = 64  // payload fractions: fixed by the file format
        header[22] = 32
        header[23] = 32
        put32(&header, 24, 1)  // change counter…
        put32(&header, 28, pageCount)
        put32(&header, 40, 1)  // schema cookie
        put32(&header, 44, 4)  // schema format
        put32(&header, 56, 1)  // UTF-8
        put32(&header, 92, 1)  // …which makes the page count above valid
        put32(&header, 96, 3_040_001)
        return header
    }

    /// Page 1 holds the schema b-tree: a table page whose cell pointers all
    /// fall inside the page, above its header.
    private static func isBTreePage(_ bytes: Data, pageStart: Int, headerAt offset: Int, pageSize: Int,
                                    pageCount: Int) -> Bool {
        let base = bytes.startIndex + pageStart + offset
        guard bytes.count >= pageStart + offset + 12 else { return false }
        let type = bytes[base]
        guard type == 0x0D || type == 0x05 else { return false }
        let headerSize = type == 0x05 ? 12 : 8
        let cells = read16(bytes, base + 3)
        let contentStart = read16(bytes, base + 5) == 0 ? 65536 : read16(bytes, base + 5)
        let pointers = offset + headerSize
        guard contentStart <= pageSize, pointers + 2 * cells <= contentStart || cells == 0 else { return false }
        guard bytes.count >= pageStart + pointers + 2 * cells else { return false }
        for cell in 0..<cells {
            let pointer = read16(bytes, bytes.startIndex + pageStart + pointers + 2 * cell)
            guard pointer >= contentStart, pointer < pageSize else { return false }
        }
        if type == 0x05 {
            let rightChild = read32(bytes, base + 8)
            guard rightChild >= 2, rightChild <= pageCount else { return false }
        }
        return true
    }

    /// Page 2 is a b-tree page, or an overflow or freelist page (which start
    /// with a page number, small in any file Hark makes).
    private static func isPlausiblePage2(_ bytes: Data, pageSize: Int) -> Bool {
        [0x00, 0x02, 0x05, 0x0A, 0x0D].contains(bytes[bytes.startIndex + pageSize])
    }

    private static func read16(_ bytes: Data, _ index: Int) -> Int {
        Int(bytes[index]) << 8 | Int(bytes[index + 1])
    }

    private static func read32(_ bytes: Data, _ index: Int) -> Int {
        Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
    }

    private static func put16(_ bytes: inout Data, _ offset: Int, _ value: Int) {
        bytes[offset] = UInt8((value >> 8) & 0xFF)
        bytes[offset + 1] = UInt8(value & 0xFF)
    }

    private static func put32(_ bytes: inout Data, _ offset: Int, _ value: Int) {
        for shift in 0..<4 { bytes[offset + shift] = UInt8((value >> (24 - 8 * shift)) & 0xFF) }
    }
}
