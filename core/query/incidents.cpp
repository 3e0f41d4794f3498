// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidents.h"

#include <QSqlQuery>
#include <QVariant>

namespace redrive {
namespace {

const QLatin1String kColumns("id, destination, category, opened_at, count_at_open, last_count, updated_at, "
                             "acknowledged_by, acknowledged_at, note, closed_at");

std::optional<qint64> optionalLong(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

Incident readRow(const QSqlQuery &q)
{
    Incident i;
    i.id = q.value(0).toLongLong();
    i.destination = q.value(1).toString();
    i.category = q.value(2).toString();
    i.openedAt = q.value(3).toLongLong();
    i.countAtOpen = q.value(4).toLongLong();
    i.count = q.value(5).toLongLong();
    i.updatedAt = q.value(6).toLongLong();
    i.acknowledgedBy = q.value(7).toString();
    i.acknowledgedAt = optionalLong(q.value(8));
    i.note = q.value(9).toString();
    i.closedAt = optionalLong(q.value(10));
    return i;
}

} // namespace

Result<QList<Incident>> fetchOpenIncidents(Db &db)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT %1 FROM incidents WHERE closed_at IS NULL ORDER BY opened_at DESC, id DESC")
                .arg(kColumns),
            {});
        !ran)
        return Failure(ran.error());
    QList<Incident> rows;
    while (q.next())
        rows.append(readRow(q));
    return rows;
}

Result<std::optional<Incident>> fetchIncident(Db &db, qint64 id)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, QStringLiteral("SELECT %1 FROM incidents WHERE id = ?").arg(kColumns), { id });
        !ran)
        return Failure(ran.error());
    if (!q.next())
        return std::nullopt;
    return readRow(q);
}

} // namespace redrive
