// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <functional>

struct pg_conn;
struct pg_result;

namespace redrive {

// A named prepared statement on the libpq connection behind a QPSQL connection, for the ingest
// hot path. QPSQL 6.4 runs a prepared query as an SQL "EXECUTE name (literal, …)" text, so a
// batch of 1 KiB bodies travels as hex-escaped bytea literals the server must parse again; the
// writer spent more time there than in the commit. Here every parameter is sent in binary
// format (arrays included, see PgArray), so one statement carries a whole batch byte-exact.
// Same connection and transaction as the Db; one thread, like the Db it belongs to.
class PgStatement final {
public:
    // The native handle of a PostgreSQL Db, nullptr for other engines.
    static pg_conn *nativeHandle(Db &db);

    // `sql` uses $1, $2, … with explicit casts, e.g. "… unnest($1::text[], $2::bytea[]) …".
    Result<> prepare(Db &db, const QByteArray &name, const QString &sql, int parameterCount);
    [[nodiscard]] bool isValid() const { return m_conn != nullptr; }

    // One row of the result, text format.
    class Row {
    public:
        Row(const pg_result *result, int row)
            : m_result(result)
            , m_row(row)
        { }
        [[nodiscard]] QByteArrayView text(int column) const;
        [[nodiscard]] qint64 int64(int column) const;

    private:
        const pg_result *m_result;
        int m_row;
    };
    using RowReader = std::function<void(const Row &row)>;

    // `parameters` are the binary values of $1…$n (see int8() and PgArray); `onRow` sees every
    // returned row. Errors name the server's message and SQLSTATE, never a parameter value.
    Result<> exec(const QList<QByteArray> &parameters, const RowReader &onRow);

    // The binary form of a bigint parameter.
    static QByteArray int8(qint64 value);

private:
    pg_conn *m_conn = nullptr;
    QByteArray m_name;
    int m_parameterCount = 0;
};

// A one-dimensional PostgreSQL array in binary wire format (array_send), built element by
// element: text, bytea or bigint elements, any of them NULL.
class PgArray final {
public:
    enum class Type { Text, Bytea, Int8 };
    PgArray(Type type, qsizetype count, qsizetype expectedBytes = 0);

    void append(QByteArrayView bytes); // Text (valid UTF-8) or Bytea
    void append(qint64 value); // Int8
    void appendNull();
    // The encoded array; exactly `count` elements must have been appended.
    [[nodiscard]] QByteArray finish();

private:
    QByteArray m_data;
    qsizetype m_count;
    qsizetype m_appended = 0;
    bool m_hasNull = false;
};

} // namespace redrive
