// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "opsstats.h"

#include "storage/sqlrow.h"

#include <QHash>
#include <QSqlQuery>

#include <algorithm>

namespace redrive {
Result<QList<DeadLetterGroup>> fetchDeadLetterGroups(Db &db)
{
    return selectRows(db,
        QStringLiteral(
            "SELECT g.category, g.destination, g.n, g.oldest, g.newest, "
            "(SELECT d.last_error FROM deliveries d WHERE d.status = %1 AND d.destination = g.destination "
            "AND COALESCE(d.last_category, '') = g.category ORDER BY d.dead_at DESC, d.id DESC LIMIT 1) "
            "FROM (SELECT COALESCE(last_category, '') AS category, destination, count(*) AS n, "
            "min(dead_at) AS oldest, max(dead_at) AS newest FROM deliveries WHERE status = %1 "
            "GROUP BY COALESCE(last_category, ''), destination) g ORDER BY g.n DESC")
            .arg(sqlName(DeliveryStatus::Dead)),
        {}, [](const QSqlQuery &q) {
            DeadLetterGroup g;
            readColumns(q, g.category, g.destination, g.count, g.oldestAt, g.newestAt, g.latestError);
            return g;
        });
}

Result<QList<RejectionRow>> fetchRejections(Db &db, qint64 beforeId, int limit)
{
    QString sql = QStringLiteral(
        "SELECT id, source, reason, detail, status_code, remote_addr, received_at FROM rejections");
    QVariantList binds;
    if (beforeId > 0) {
        sql += QLatin1String(" WHERE id < ?");
        binds << beforeId;
    }
    sql += QLatin1String(" ORDER BY id DESC LIMIT ?");
    binds << limit;
    return selectRows(db, sql, binds, [](const QSqlQuery &q) {
        RejectionRow r;
        readColumns(q, r.id, r.source, r.reason, r.detail, r.statusCode, r.remoteAddr, r.receivedAt);
        return r;
    });
}

Result<FilterFacets> fetchFilterFacets(Db &db)
{
    FilterFacets f;
    QSqlQuery q(db.handle());
    auto distinct = [&](const char *column, QStringList *out) -> Result<> {
        const QString c = QLatin1String(column);
        // A recursive "skip scan": each step asks the index for the next larger value.
        if (auto ran = runQuery(q,
                QStringLiteral(
                    "WITH RECURSIVE v(x) AS (SELECT min(%1) FROM events UNION ALL "
                    "SELECT (SELECT min(%1) FROM events WHERE %1 > v.x) FROM v WHERE v.x IS NOT NULL) "
                    "SELECT x FROM v WHERE x IS NOT NULL LIMIT 500")
                    .arg(c),
                {});
            !ran)
            return Failure(ran.error());
        while (q.next())
            out->append(q.value(0).toString());
        return ok();
    };
    if (auto sources = distinct("source", &f.sources); !sources)
        return Failure(sources.error());
    if (auto types = distinct("event_type", &f.types); !types)
        return Failure(types.error());
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT DISTINCT destination FROM deliveries ORDER BY destination LIMIT 500"), {});
        !ran)
        return Failure(ran.error());
    while (q.next())
        f.destinations.append(q.value(0).toString());
    return f;
}

Result<StoredSpan> fetchStoredSpan(Db &db)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, QStringLiteral("SELECT min(received_at) FROM events"), {}); !ran)
        return Failure(ran.error());
    StoredSpan span;
    if (q.next() && !q.value(0).isNull())
        span.firstReceivedAt = q.value(0).toLongLong();
    return span;
}

Result<Overview> fetchOverview(Db &db, qint64 fromMs, qint64 toMs, int bucketCount)
{
    Overview o;
    bucketCount = std::max(1, bucketCount);
    o.fromMs = fromMs;
    o.bucketMs = std::max<qint64>(1, (toMs - fromMs + bucketCount - 1) / bucketCount);
    for (int i = 0; i < bucketCount; ++i)
        o.buckets.append({ fromMs + i * o.bucketMs, 0, 0, 0, 0 });
    auto bucketOf = [&](qint64 at) -> OverviewBucket * {
        const qint64 i = (at - fromMs) / o.bucketMs;
        return i >= 0 && i < bucketCount ? &o.buckets[i] : nullptr;
    };
    QSqlQuery q(db.handle());
    // Grouping happens in the database; only one row per bucket comes back.
    const QString bucketExpr = QStringLiteral("((%1 - ?) / ?)");
    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT %1 AS b, count(*) FROM events WHERE received_at >= ? AND received_at < ? GROUP BY b")
                .arg(bucketExpr.arg(QLatin1String("received_at"))),
            { fromMs, o.bucketMs, fromMs, toMs });
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        const qint64 i = q.value(0).toLongLong();
        if (i >= 0 && i < bucketCount)
            o.buckets[i].received = q.value(1).toLongLong();
    }
    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT %1 AS b, category, count(*) FROM attempts WHERE started_at >= ? AND started_at < ? "
                "GROUP BY b, category")
                .arg(bucketExpr.arg(QLatin1String("started_at"))),
            { fromMs, o.bucketMs, fromMs, toMs });
        !ran)
        return Failure(ran.error());
    QHash<QString, qint64> categories; // by stored name, so an unknown one is counted as itself
    while (q.next()) {
        const qint64 i = q.value(0).toLongLong();
        const auto category = Stored<FailureCategory>::fromName(q.value(1).toString());
        const qint64 n = q.value(2).toLongLong();
        const bool succeeded = category == FailureCategory::None;
        if (!succeeded)
            categories[category.name()] += n;
        if (i < 0 || i >= bucketCount)
            continue;
        if (succeeded)
            o.buckets[i].succeeded += n;
        else
            o.buckets[i].retried += n;
    }
    for (auto it = categories.cbegin(); it != categories.cend(); ++it)
        o.failureCategories.append({ Stored<FailureCategory>::fromName(it.key()), it.value() });
    std::sort(o.failureCategories.begin(), o.failureCategories.end(), [](const auto &a, const auto &b) {
        return a.second > b.second || (a.second == b.second && a.first.name() < b.first.name());
    });

    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT dead_at FROM deliveries WHERE status = %1 AND dead_at >= ? AND dead_at < ?")
                .arg(sqlName(DeliveryStatus::Dead)),
            { fromMs, toMs });
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        if (OverviewBucket *b = bucketOf(q.value(0).toLongLong()))
            ++b->dead;
    }
    // A dead delivery's last attempt is counted as dead, not as a retry.
    for (OverviewBucket &b : o.buckets)
        b.retried = std::max<qint64>(0, b.retried - b.dead);

    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT d.destination, count(*), "
                "sum(CASE WHEN a.category = %1 THEN 1 ELSE 0 END), avg(a.duration_ms) "
                "FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
                "WHERE a.started_at >= ? AND a.started_at < ? GROUP BY d.destination ORDER BY d.destination")
                .arg(sqlName(FailureCategory::None)),
            { fromMs, toMs });
        !ran)
        return Failure(ran.error());
    while (q.next())
        o.destinations.append({ q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toLongLong(),
            q.value(3).toDouble() });

    if (auto ran = runQuery(q,
            QStringLiteral("SELECT min(created_at), count(*) FROM deliveries WHERE status IN %1")
                .arg(sqlNames(
                    { DeliveryStatus::Pending, DeliveryStatus::InFlight, DeliveryStatus::Retrying })),
            {});
        !ran)
        return Failure(ran.error());
    if (q.next()) {
        if (!q.value(0).isNull())
            o.oldestPendingSince = q.value(0).toLongLong();
        o.backlog = q.value(1).toLongLong();
    }
    return o;
}

} // namespace redrive
