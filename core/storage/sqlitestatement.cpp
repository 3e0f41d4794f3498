// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "sqlitestatement.h"

#include <QSqlDriver>

#include <cstring>
#include <sqlite3.h>

namespace redrive {

SqliteStatement::~SqliteStatement()
{
    finalize();
}

void SqliteStatement::finalize()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
}

sqlite3 *SqliteStatement::nativeHandle(Db &db)
{
    if (!db.isSqlite() || !db.handle().driver())
        return nullptr;
    const QVariant v = db.handle().driver()->handle();
    // QSQLITE documents its handle as a QVariant holding a sqlite3*.
    if (!v.isValid() || std::strcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(v.constData());
}

Result<> SqliteStatement::prepare(Db &db, const QString &sql)
{
    finalize();
    m_db = nativeHandle(db);
    if (!m_db)
        return Failure(QStringLiteral("no native SQLite handle on this connection"));
    const QByteArray text = sql.toUtf8();
    if (sqlite3_prepare_v3(m_db, text.constData(), static_cast<int>(text.size()), SQLITE_PREPARE_PERSISTENT,
            &m_stmt, nullptr)
        != SQLITE_OK) {
        const QString why = errorText();
        finalize();
        return Failure(why);
    }
    return ok();
}

void SqliteStatement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
}

void SqliteStatement::bindInt64(int index, qint64 value)
{
    sqlite3_bind_int64(m_stmt, index, value);
}

void SqliteStatement::bindText(int index, const QString &value)
{
    if (value.isNull()) {
        sqlite3_bind_null(m_stmt, index);
        return;
    }
    const QByteArray utf8 = value.toUtf8();
    sqlite3_bind_text(m_stmt, index, utf8.constData(), static_cast<int>(utf8.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::bindUtf8(int index, QByteArrayView utf8)
{
    if (utf8.isNull()) {
        sqlite3_bind_null(m_stmt, index);
        return;
    }
    sqlite3_bind_text(m_stmt, index, utf8.data(), static_cast<int>(utf8.size()), SQLITE_STATIC);
}

void SqliteStatement::bindBlob(int index, const QByteArray &value)
{
    if (value.isNull()) {
        sqlite3_bind_null(m_stmt, index);
        return;
    }
    if (value.isEmpty()) {
        sqlite3_bind_zeroblob(m_stmt, index, 0); // an empty blob, not NULL
        return;
    }
    sqlite3_bind_blob(m_stmt, index, value.constData(), static_cast<int>(value.size()), SQLITE_STATIC);
}

SqliteStatement::Step SqliteStatement::step()
{
    switch (sqlite3_step(m_stmt)) {
    case SQLITE_ROW:
        return Step::Row;
    case SQLITE_DONE:
        return Step::Done;
    default:
        return Step::Error;
    }
}

qint64 SqliteStatement::columnInt64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

bool SqliteStatement::columnIsNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

QByteArray SqliteStatement::columnBytes(int column) const
{
    const void *data = sqlite3_column_blob(m_stmt, column);
    const int size = sqlite3_column_bytes(m_stmt, column);
    if (!data)
        return size == 0 && sqlite3_column_type(m_stmt, column) != SQLITE_NULL ? QByteArray("")
                                                                               : QByteArray();
    return QByteArray(static_cast<const char *>(data), size);
}

QString SqliteStatement::columnText(int column) const
{
    const unsigned char *text = sqlite3_column_text(m_stmt, column);
    if (!text)
        return {};
    return QString::fromUtf8(reinterpret_cast<const char *>(text), sqlite3_column_bytes(m_stmt, column));
}

qint64 SqliteStatement::changes() const
{
    return sqlite3_changes64(m_db);
}

qint64 SqliteStatement::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
}

Result<> SqliteStatement::execute()
{
    const bool done = step() == Step::Done;
    const QString why = done ? QString() : errorText();
    reset();
    if (!done)
        return Failure(why);
    return ok();
}

QString SqliteStatement::errorText() const
{
    if (!m_db)
        return QStringLiteral("no SQLite connection");
    return QStringLiteral("%1 (code %2)")
        .arg(QString::fromUtf8(sqlite3_errmsg(m_db)))
        .arg(sqlite3_extended_errcode(m_db));
}

} // namespace redrive
