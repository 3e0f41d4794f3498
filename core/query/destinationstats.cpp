// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "destinationstats.h"

#include "storage/circuitstore.h"

#include <QMap>
#include <QSqlQuery>

namespace redrive {
Result<QHash<QString, DestinationPause>> fetchDestinationPauses(Db &db)
{
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT name, paused, changed_by, changed_at, reason, paused_until FROM destination_state"),
            {});
        !ran)
        return Failure(ran.error());
    QHash<QString, DestinationPause> pauses;
    while (q.next()) {
        DestinationPause &d = pauses[q.value(0).toString()];
        d.paused = q.value(1).toInt() != 0;
        d.changedBy = q.value(2).toString();
        if (!q.value(3).isNull())
            d.changedAt = q.value(3).toLongLong();
        d.reason = q.value(4).toString();
        if (!q.value(5).isNull())
            d.pausedUntil = q.value(5).toLongLong();
    }
    return pauses;
}

Result<QList<DestinationStatus>> fetchDestinationStatuses(
    Db &db, const QStringList &configured, qint64 nowMs, const DestinationWindows &windows)
{
    QMap<QString, DestinationStatus> byName;
    auto entry = [&byName](const QString &name) -> DestinationStatus & {
        DestinationStatus &d = byName[name];
        d.name = name;
        return d;
    };
    for (const QString &name : configured)
        entry(name).configured = true;

    QSqlQuery q(db.handle());
    // Unfinished and dead deliveries, counted through the (status, destination) index.
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT status, destination, count(*) FROM deliveries "
                           "WHERE status IN %1 GROUP BY status, destination")
                .arg(sqlNames({ DeliveryStatus::Pending, DeliveryStatus::InFlight, DeliveryStatus::Retrying,
                    DeliveryStatus::Dead })),
            {});
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        const auto status = Stored<DeliveryStatus>::fromName(q.value(0).toString());
        DestinationStatus &d = entry(q.value(1).toString());
        d.hasDeliveries = true;
        const qint64 n = q.value(2).toLongLong();
        if (status == DeliveryStatus::Pending)
            d.pending = n;
        else if (status == DeliveryStatus::InFlight)
            d.inFlight = n;
        else if (status == DeliveryStatus::Retrying)
            d.retrying = n;
        else
            d.dead = n;
    }
    q.finish();
    // Destinations whose deliveries all succeeded: one index probe per distinct name, not a scan
    // of every succeeded delivery.
    if (auto ran = runQuery(q,
            QStringLiteral(
                "WITH RECURSIVE v(x) AS (SELECT min(destination) FROM deliveries WHERE status = %1 "
                "UNION ALL SELECT (SELECT min(destination) FROM deliveries WHERE status = %1 "
                "AND destination > v.x) FROM v WHERE v.x IS NOT NULL) "
                "SELECT x FROM v WHERE x IS NOT NULL LIMIT 500")
                .arg(sqlName(DeliveryStatus::Succeeded)),
            {});
        !ran)
        return Failure(ran.error());
    while (q.next())
        entry(q.value(0).toString()).hasDeliveries = true;
    q.finish();

    const auto pauses = fetchDestinationPauses(db);
    if (!pauses)
        return Failure(pauses.error());
    for (auto it = pauses->cbegin(); it != pauses->cend(); ++it) {
        DestinationStatus &d = entry(it.key());
        d.paused = it->paused;
        d.changedBy = it->changedBy;
        d.changedAt = it->changedAt;
        d.reason = it->reason;
        d.pausedUntil = it->pausedUntil;
    }
    const auto circuits = fetchCircuits(db);
    if (!circuits)
        return Failure(circuits.error());
    for (auto it = circuits->cbegin(); it != circuits->cend(); ++it) {
        if (!it->since)
            continue; // never opened
        DestinationStatus &d = entry(it.key());
        d.circuitOpen = it->open;
        d.circuitSince = it->since;
        d.circuitReason = it->reason;
        d.nextProbeAt = it->nextProbeAt;
    }

    // Recent attempts through the started_at index: the success rate over the short window and
    // the newest failure over the long one, in one pass.
    const qint64 rateFrom = nowMs - windows.successRateMs;
    const qint64 failureFrom = nowMs - windows.lastFailureMs;
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT d.destination, "
                           "sum(CASE WHEN a.started_at >= ? THEN 1 ELSE 0 END), "
                           "sum(CASE WHEN a.started_at >= ? AND a.category = %1 THEN 1 ELSE 0 END), "
                           "max(CASE WHEN a.category <> %1 THEN a.started_at END) "
                           "FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
                           "WHERE a.started_at >= ? AND a.started_at <= ? GROUP BY d.destination")
                .arg(sqlName(FailureCategory::None)),
            { rateFrom, rateFrom, std::min(rateFrom, failureFrom), nowMs });
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        DestinationStatus &d = entry(q.value(0).toString());
        d.hasDeliveries = true;
        d.recentAttempts = q.value(1).toLongLong();
        d.recentSucceeded = q.value(2).toLongLong();
        if (!q.value(3).isNull() && q.value(3).toLongLong() >= failureFrom)
            d.lastFailureAt = q.value(3).toLongLong();
    }
    q.finish();
    // The category of each newest failure: one started_at index lookup per destination.
    for (DestinationStatus &d : byName) {
        if (!d.lastFailureAt)
            continue;
        if (auto ran = runQuery(q,
                QStringLiteral(
                    "SELECT a.category, a.explanation FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
                    "WHERE a.started_at = ? AND d.destination = ? AND a.category <> %1 "
                    "ORDER BY a.id DESC LIMIT 1")
                    .arg(sqlName(FailureCategory::None)),
                { *d.lastFailureAt, d.name });
            !ran)
            return Failure(ran.error());
        if (q.next()) {
            d.lastFailureCategory = Stored<FailureCategory>::fromName(q.value(0).toString());
            d.lastFailureExplanation = q.value(1).toString();
        }
        q.finish();
    }
    return QList<DestinationStatus>(byName.cbegin(), byName.cend());
}

} // namespace redrive
