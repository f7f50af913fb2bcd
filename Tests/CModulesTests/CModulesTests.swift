import CCairo
import CSQLite
import XCTest

/// The system-library modules that no Swift module uses yet still import,
/// link and work, shims included.
final class CModulesTests: XCTestCase {
    func testSQLiteBindsAndReadsBackWithTransientText() throws {
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open(":memory:", &db), SQLITE_OK)
        defer { sqlite3_close(db) }
        XCTAssertEqual(sqlite3_exec(db, "CREATE TABLE t (title TEXT)", nil, nil, nil), SQLITE_OK)

        var insert: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?)", -1, &insert, nil), SQLITE_OK)
        var title = "Voice note — 1"
        title.withUTF8 { _ = sqlite3_bind_text(insert, 1, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), Int32($0.count), hark_sqlite_transient()) }
        title = "overwritten after binding"  // TRANSIENT made SQLite copy the text
        XCTAssertEqual(sqlite3_step(insert), SQLITE_DONE)
        sqlite3_finalize(insert)

        var select: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(db, "SELECT title FROM t", -1, &select, nil), SQLITE_OK)
        defer { sqlite3_finalize(select) }
        XCTAssertEqual(sqlite3_step(select), SQLITE_ROW)
        XCTAssertEqual(String(cString: sqlite3_column_text(select, 0)), "Voice note — 1")
    }

    func testCairoDrawsIntoAnImageSurface() {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4)
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)
        cairo_set_source_rgb(cairo, 0, 0, 1)
        cairo_rectangle(cairo, 0, 0, 2, 4)
        cairo_fill(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixel = { (x: Int, y: Int) in
            UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        }
        XCTAssertEqual(pixel(0, 0), 0xFF00_00FF, "opaque blue on the left")
        XCTAssertEqual(pixel(3, 3), 0, "untouched transparent on the right")
    }
}
