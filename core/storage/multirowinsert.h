// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QSqlQuery>
#include <QString>

#include <functional>
#include <map>

namespace redrive {

// One INSERT with many VALUES rows, for engines where every statement is a network round trip
// (PostgreSQL). Rows are sent in chunks of power-of-two sizes up to kMaxRows, so at most nine
// prepared statements per shape are kept on the connection and reused for every batch.
class MultiRowInsert final {
public:
    // "INSERT INTO t (a, b) VALUES", "(?, ?)", 2, " ON CONFLICT … RETURNING …"
    MultiRowInsert(Db &db, QString head, QString rowPlaceholders, int columns, QString tail);
    MultiRowInsert(const MultiRowInsert &) = delete;
    MultiRowInsert &operator=(const MultiRowInsert &) = delete;

    // `bind(row, query, firstParameter)` binds row `row`'s values at firstParameter,
    // firstParameter + 1, …; `onResult(query)` is called for every RETURNING row.
    using Binder = std::function<void(int row, QSqlQuery &query, int firstParameter)>;
    using ResultReader = std::function<void(const QSqlQuery &query)>;
    Result<> exec(int rowCount, const Binder &bind, const ResultReader &onResult);

    static constexpr int kMaxRows = 256;

private:
    Result<QSqlQuery *> statement(int rows);

    Db &m_db;
    QString m_head;
    QString m_row;
    int m_columns;
    QString m_tail;
    std::map<int, QSqlQuery> m_statements;
};

} // namespace redrive
