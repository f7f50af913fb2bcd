// SQLite 3 for Swift. SQLITE_TRANSIENT is a cast macro: wrapped below.
#ifndef HARK_CSQLITE_SHIM_H
#define HARK_CSQLITE_SHIM_H
#include <sqlite3.h>

static inline sqlite3_destructor_type hark_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
