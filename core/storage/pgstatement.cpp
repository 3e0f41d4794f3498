// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "pgstatement.h"

#include <QSqlDriver>
#include <QtEndian>

#include <cstring>
#include <libpq-fe.h>
#include <vector>

namespace redrive {
namespace {

// Type OIDs from pg_type.h (stable across releases).
constexpr quint32 kTextOid = 25;
constexpr quint32 kByteaOid = 17;
constexpr quint32 kInt8Oid = 20;

void appendInt32(QByteArray &out, qint32 value)
{
    const qint32 big = qToBigEndian(value);
    out.append(reinterpret_cast<const char *>(&big), sizeof big);
}

// The primary message and SQLSTATE only: DETAIL lines may quote key values from the batch.
QString resultError(const PGresult *result, PGconn *conn)
{
    if (!result)
        return QString::fromUtf8(PQerrorMessage(conn)).trimmed();
    const char *message = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
    const char *state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    if (!message)
        return QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
    return QStringLiteral("%1 (SQLSTATE %2)")
        .arg(QString::fromUtf8(message), QString::fromLatin1(state ? state : "?"));
}

} // namespace

PGconn *PgStatement::nativeHandle(Db &db)
{
    if (db.isSqlite() || !db.handle().driver())
        return nullptr;
    const QVariant v = db.handle().driver()->handle();
    // QPSQL documents its handle as a QVariant holding a PGconn*; Qt 6 names the metatype after
    // the struct behind the typedef.
    if (!v.isValid()
        || (std::strcmp(v.typeName(), "PGconn*") != 0 && std::strcmp(v.typeName(), "pg_conn*") != 0))
        return nullptr;
    return *static_cast<PGconn *const *>(v.constData());
}

Result<> PgStatement::prepare(Db &db, const QByteArray &name, const QString &sql, int parameterCount)
{
    m_conn = nullptr;
    PGconn *conn = nativeHandle(db);
    if (!conn)
        return Failure(QStringLiteral("no native PostgreSQL handle on this connection"));
    const QByteArray text = sql.toUtf8();
    PGresult *result = PQprepare(conn, name.constData(), text.constData(), parameterCount, nullptr);
    const bool prepared = result && PQresultStatus(result) == PGRES_COMMAND_OK;
    const QString why = prepared ? QString() : resultError(result, conn);
    PQclear(result);
    if (!prepared)
        return Failure(why);
    m_conn = conn;
    m_name = name;
    m_parameterCount = parameterCount;
    return ok();
}

Result<> PgStatement::exec(const QList<QByteArray> &parameters, const RowReader &onRow)
{
    if (!m_conn || parameters.size() != m_parameterCount)
        return Failure(m_conn ? QStringLiteral("statement %1 expects %2 parameters, got %3")
                                    .arg(QString::fromLatin1(m_name))
                                    .arg(m_parameterCount)
                                    .arg(parameters.size())
                              : QStringLiteral("statement not prepared"));
    std::vector<const char *> values(static_cast<std::size_t>(m_parameterCount));
    std::vector<int> lengths(values.size());
    const std::vector<int> formats(values.size(), 1);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const QByteArray &p = parameters[static_cast<qsizetype>(i)];
        values[i] = p.isNull() ? nullptr : p.constData();
        lengths[i] = static_cast<int>(p.size());
    }
    PGresult *result = PQexecPrepared(
        m_conn, m_name.constData(), m_parameterCount, values.data(), lengths.data(), formats.data(), 0);
    const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    const bool succeeded = status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
    QString why;
    if (!succeeded) {
        why = resultError(result, m_conn);
    } else if (onRow) {
        const int rows = PQntuples(result);
        for (int r = 0; r < rows; ++r)
            onRow(Row(result, r));
    }
    PQclear(result);
    if (!succeeded)
        return Failure(why);
    return ok();
}

QByteArray PgStatement::int8(qint64 value)
{
    const qint64 big = qToBigEndian(value);
    return QByteArray(reinterpret_cast<const char *>(&big), sizeof big);
}

QByteArrayView PgStatement::Row::text(int column) const
{
    return QByteArrayView(PQgetvalue(m_result, m_row, column), PQgetlength(m_result, m_row, column));
}

qint64 PgStatement::Row::int64(int column) const
{
    return text(column).toLongLong();
}

PgArray::PgArray(Type type, qsizetype count, qsizetype expectedBytes)
    : m_count(count)
{
    m_data.reserve(20 + count * (type == Type::Int8 ? 12 : 4) + expectedBytes);
    appendInt32(m_data, 1); // dimensions
    appendInt32(m_data, 0); // has-null flag, set in finish()
    appendInt32(m_data,
        static_cast<qint32>(type == Type::Text ? kTextOid
                : type == Type::Bytea          ? kByteaOid
                                               : kInt8Oid));
    appendInt32(m_data, static_cast<qint32>(count));
    appendInt32(m_data, 1); // lower bound
}

void PgArray::append(QByteArrayView bytes)
{
    appendInt32(m_data, static_cast<qint32>(bytes.size()));
    m_data.append(bytes);
    ++m_appended;
}

void PgArray::append(qint64 value)
{
    appendInt32(m_data, 8);
    const qint64 big = qToBigEndian(value);
    m_data.append(reinterpret_cast<const char *>(&big), sizeof big);
    ++m_appended;
}

void PgArray::appendNull()
{
    appendInt32(m_data, -1);
    m_hasNull = true;
    ++m_appended;
}

QByteArray PgArray::finish()
{
    Q_ASSERT(m_appended == m_count);
    if (m_hasNull) {
        const qint32 one = qToBigEndian(qint32(1));
        std::memcpy(m_data.data() + 4, &one, sizeof one);
    }
    return std::move(m_data);
}

} // namespace redrive
