import CSQLite

/// `hark_search_text(text)`: `SearchText.folded` for SQL, which the search
/// index's triggers call (migration 10). Every connection the store opens
/// has it; a tool without it (the sqlite3 shell) can read the store but not
/// change a title or transcript.
enum SearchTextFunction {
    static let name = "hark_search_text"

    static func register(on handle: OpaquePointer) {
        sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, count, values in
                guard count == 1, let value = values?[0], sqlite3_value_type(value) != SQLITE_NULL,
                      let text = sqlite3_value_text(value) else {
                    sqlite3_result_null(context)
                    return
                }
                let folded = SearchText.folded(String(cString: text))
                sqlite3_result_text(context, folded, -1, hark_sqlite_transient())
            }, nil, nil, nil)
    }
}
