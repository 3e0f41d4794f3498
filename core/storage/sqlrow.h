// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QByteArray>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <optional>
#include <type_traits>

// Reads a result row into a struct's fields in the order of the SELECT's columns, each by the
// field's type, so a reader lists its fields once instead of keeping a column index per line.
//
//     readColumns(q, e.seq, e.atMs, e.actor);   // columns 0, 1, 2
//     readColumnsFrom(q, 11, d.idempotencyKey); // column 11
//
// A value that needs more than its type says (text made safe, a role parsed with a fallback, a
// field computed from others) is read into a local or assigned after the call.
//
// selectRows() and selectRow() run a SELECT through runQuery() and read its rows with a row
// reader, for the many queries whose whole answer is "each row, read the same way".
namespace redrive {

namespace sqlrow {
inline void read(const QVariant &v, qint64 &out)
{
    out = v.toLongLong();
}
inline void read(const QVariant &v, int &out)
{
    out = v.toInt();
}
inline void read(const QVariant &v, double &out)
{
    out = v.toDouble();
}
// Flags are stored as integers 0/1 on both engines.
inline void read(const QVariant &v, bool &out)
{
    out = v.toInt() != 0;
}
inline void read(const QVariant &v, QString &out)
{
    out = v.toString();
}
// A text column's UTF-8 bytes, or a blob's bytes.
inline void read(const QVariant &v, QByteArray &out)
{
    out = v.toByteArray();
}
// A stored state's name; an unknown name is kept as its text (see Stored).
template<typename E> void read(const QVariant &v, Stored<E> &out)
{
    out = Stored<E>::fromName(v.toString());
}
// NULL is nullopt; anything else is read as T.
template<typename T> void read(const QVariant &v, std::optional<T> &out)
{
    if (v.isNull()) {
        out.reset();
        return;
    }
    T value {};
    read(v, value);
    out = std::move(value);
}
} // namespace sqlrow

// Reads columns first, first + 1, … of q's current row into fields, in order.
template<typename... Fields> void readColumnsFrom(const QSqlQuery &q, int first, Fields &...fields)
{
    int column = first;
    (sqlrow::read(q.value(column++), fields), ...);
}

// Reads columns 0, 1, … of q's current row into fields, in order.
template<typename... Fields> void readColumns(const QSqlQuery &q, Fields &...fields)
{
    readColumnsFrom(q, 0, fields...);
}

// Runs sql with binds (runQuery) and reads each row with readRow(q), in the query's order.
template<typename ReadRow>
auto selectRows(Db &db, const QString &sql, const QVariantList &binds, ReadRow readRow)
    -> Result<QList<std::invoke_result_t<ReadRow &, const QSqlQuery &>>>
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, sql, binds); !ran)
        return Failure(ran.error());
    QList<std::invoke_result_t<ReadRow &, const QSqlQuery &>> rows;
    while (q.next())
        rows.append(readRow(q));
    return rows;
}

// The first row of sql's answer read with readRow(q); nullopt when there is none.
template<typename ReadRow>
auto selectRow(Db &db, const QString &sql, const QVariantList &binds, ReadRow readRow)
    -> Result<std::optional<std::invoke_result_t<ReadRow &, const QSqlQuery &>>>
{
    using Row = std::invoke_result_t<ReadRow &, const QSqlQuery &>;
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, sql, binds); !ran)
        return Failure(ran.error());
    if (!q.next())
        return std::optional<Row>();
    return std::optional<Row>(readRow(q));
}

} // namespace redrive
