// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

struct sqlite3;
struct sqlite3_stmt;

namespace redrive {

// A prepared statement on the sqlite3 handle behind a QSQLITE connection, for the few
// statements on the ingest hot path. Qt 6.4's QSqlResult::bindValue() builds a placeholder
// name and hashes it for every bound value and QSQLITE binds text as UTF-16; on the group-commit
// writer that was about a fifth of its time. Same connection, same transaction as the Db.
// One thread, like the Db it belongs to; finalized before the connection closes.
class SqliteStatement final {
public:
    SqliteStatement() = default;
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    // The native handle of a SQLite Db, nullptr for other engines.
    static sqlite3 *nativeHandle(Db &db);

    Result<> prepare(Db &db, const QString &sql);
    [[nodiscard]] bool isValid() const { return m_stmt != nullptr; }

    // Parameters are 1-based, as in SQL. A null QString or QByteArray binds SQL NULL.
    void bindNull(int index);
    void bindInt64(int index, qint64 value);
    void bindText(int index, const QString &value);
    // UTF-8 text, not copied: `utf8` must outlive step(). A null view binds SQL NULL.
    void bindUtf8(int index, QByteArrayView utf8);
    // The bytes are not copied: `value` must outlive step().
    void bindBlob(int index, const QByteArray &value);

    enum class Step { Row, Done, Error };
    Step step();
    [[nodiscard]] qint64 columnInt64(int column) const;
    [[nodiscard]] bool columnIsNull(int column) const;
    // Copies of a TEXT or BLOB column of the current row.
    [[nodiscard]] QByteArray columnBytes(int column) const;
    [[nodiscard]] QString columnText(int column) const;
    // Rows changed by the last step of a DML statement on this connection (sqlite3_changes).
    [[nodiscard]] qint64 changes() const;
    // The rowid of the last row inserted on this connection (sqlite3_last_insert_rowid).
    [[nodiscard]] qint64 lastInsertRowId() const;
    // Ready for the next execution (bindings are replaced by the next bind calls).
    void reset();
    // Runs a statement that returns no rows to completion and resets it, failing with
    // errorText() (read before the reset, which would clear it) when it did not finish.
    Result<> execute();
    // The last error on the connection, e.g. "NOT NULL constraint failed: events.source (code 1299)".
    [[nodiscard]] QString errorText() const;

private:
    void finalize();
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
};

} // namespace redrive
