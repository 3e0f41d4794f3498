// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcileruns.h"

#include <QSqlQuery>
#include <QStringList>
#include <QVariant>

namespace redrive::reconcile {
namespace {

const QLatin1String kColumns("r.id, r.source, r.provider, r.started_at, r.finished_at, r.status, r.checked, "
                             "r.missing, r.recovered, r.error, r.requested_by");

Run readRow(const QSqlQuery &q)
{
    Run r;
    r.id = q.value(0).toLongLong();
    r.source = q.value(1).toString();
    r.provider = q.value(2).toString();
    r.startedAtMs = q.value(3).toLongLong();
    if (!q.value(4).isNull())
        r.finishedAtMs = q.value(4).toLongLong();
    r.status = q.value(5).toString();
    r.checked = q.value(6).toLongLong();
    r.missing = q.value(7).toLongLong();
    r.recovered = q.value(8).toLongLong();
    r.error = q.value(9).toString();
    r.requestedBy = q.value(10).toString();
    return r;
}

} // namespace

Result<QList<Run>> lastRunPerSource(Db &db)
{
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    // The distinct sources by a loose index scan (each step one probe of (source, id) for the
    // next name), then each source's newest run by one probe from the top of its range.
    if (auto ran = runQuery(q,
            QStringLiteral("WITH RECURSIVE s(name) AS (SELECT min(source) FROM reconcile_runs "
                           "UNION ALL SELECT (SELECT min(source) FROM reconcile_runs WHERE source > s.name) "
                           "FROM s WHERE s.name IS NOT NULL) "
                           "SELECT %1 FROM s JOIN reconcile_runs r ON r.id = (SELECT max(id) FROM "
                           "reconcile_runs WHERE source = s.name) ORDER BY r.source")
                .arg(kColumns),
            {});
        !ran)
        return Failure(ran.error());
    QList<Run> rows;
    while (q.next())
        rows.append(readRow(q));
    return rows;
}

Result<QList<Run>> listRuns(Db &db, const QString &source, std::optional<qint64> beforeId, int limit)
{
    QStringList where;
    QVariantList binds;
    if (!source.isEmpty()) {
        where.append(QStringLiteral("r.source = ?"));
        binds.append(source);
    }
    if (beforeId) {
        where.append(QStringLiteral("r.id < ?"));
        binds.append(*beforeId);
    }
    binds.append(qMax(1, limit));
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT %1 FROM reconcile_runs r %2 ORDER BY r.id DESC LIMIT ?")
                .arg(kColumns,
                    where.isEmpty() ? QString()
                                    : QStringLiteral("WHERE ") + where.join(QStringLiteral(" AND "))),
            binds);
        !ran)
        return Failure(ran.error());
    QList<Run> rows;
    while (q.next())
        rows.append(readRow(q));
    return rows;
}

} // namespace redrive::reconcile
