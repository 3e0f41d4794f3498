// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "multirowinsert.h"

namespace redrive {

MultiRowInsert::MultiRowInsert(Db &db, QString head, QString rowPlaceholders, int columns, QString tail)
    : m_db(db)
    , m_head(std::move(head))
    , m_row(std::move(rowPlaceholders))
    , m_columns(columns)
    , m_tail(std::move(tail))
{ }

Result<QSqlQuery *> MultiRowInsert::statement(int rows)
{
    auto it = m_statements.find(rows);
    if (it != m_statements.end())
        return &it->second;
    QString sql = m_head;
    sql.reserve(m_head.size() + rows * (m_row.size() + 2) + m_tail.size());
    for (int i = 0; i < rows; ++i) {
        sql += i == 0 ? QStringLiteral(" ") : QStringLiteral(", ");
        sql += m_row;
    }
    sql += m_tail;
    auto q = m_db.prepare(sql);
    if (!q)
        return Failure(q.error());
    return &m_statements.emplace(rows, std::move(*q)).first->second;
}

Result<> MultiRowInsert::exec(int rowCount, const Binder &bind, const ResultReader &onResult)
{
    int done = 0;
    while (done < rowCount) {
        int chunk = 1;
        while (chunk * 2 <= std::min(rowCount - done, kMaxRows))
            chunk *= 2;
        const auto prepared = statement(chunk);
        if (!prepared)
            return Failure(prepared.error());
        QSqlQuery *q = *prepared;
        for (int r = 0; r < chunk; ++r)
            bind(done + r, *q, r * m_columns);
        if (!q->exec()) {
            const QString why = sqlErrorText(*q);
            q->finish();
            return Failure(why);
        }
        if (onResult) {
            while (q->next())
                onResult(*q);
        }
        q->finish();
        done += chunk;
    }
    return ok();
}

} // namespace redrive
