// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidents.h"

#include "storage/sqlrow.h"

#include <QSqlQuery>
#include <QVariant>

namespace redrive {
namespace {

const QLatin1String kColumns("id, destination, category, opened_at, count_at_open, last_count, updated_at, "
                             "acknowledged_by, acknowledged_at, note, closed_at");

Incident readRow(const QSqlQuery &q)
{
    Incident i;
    readColumns(q, i.id, i.destination, i.category, i.openedAt, i.countAtOpen, i.count, i.updatedAt,
        i.acknowledgedBy, i.acknowledgedAt, i.note, i.closedAt);
    return i;
}

} // namespace

Result<QList<Incident>> fetchOpenIncidents(Db &db)
{
    return selectRows(db,
        QStringLiteral("SELECT %1 FROM incidents WHERE closed_at IS NULL ORDER BY opened_at DESC, id DESC")
            .arg(kColumns),
        {}, readRow);
}

Result<std::optional<Incident>> fetchIncident(Db &db, qint64 id)
{
    return selectRow(
        db, QStringLiteral("SELECT %1 FROM incidents WHERE id = ?").arg(kColumns), { id }, readRow);
}

} // namespace redrive
