#ifndef DICTEE_CSQLITE_SHIM_H
#define DICTEE_CSQLITE_SHIM_H
// SQLite 3 (Debian libsqlite3-dev). Only Sources/Store/SQLite.swift calls into this module.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import: this
// wrapper returns it, so that sqlite3_bind_text/_blob copy the bytes before the call returns.
static inline sqlite3_destructor_type dictee_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
