// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "receiverhealth.h"

#include "storage/sqlrow.h"

#include <QSqlQuery>

namespace redrive {

Result<ReceiverInstances> fetchReceiverInstances(Db &db, qint64 sinceMs)
{
    ReceiverInstances out;
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT instance_id, host, pid, version, started_at, heartbeat_at, durability, "
                           "power_loss_durable, db_outage_began_at, db_outage_ended_at, db_outage_refused "
                           "FROM receiver_instances WHERE heartbeat_at >= ? "
                           "ORDER BY heartbeat_at DESC, instance_id LIMIT 200"),
            { sinceMs });
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        ReceiverInstance r;
        readColumns(q, r.instanceId, r.host, r.pid, r.version, r.startedAt, r.heartbeatAt, r.durability,
            r.powerLossDurable, r.outageBeganAt, r.outageEndedAt, r.outageRefused);
        out.recent.append(std::move(r));
    }
    q.finish();
    if (!q.exec(QStringLiteral("SELECT max(heartbeat_at) FROM receiver_instances")))
        return Failure(sqlErrorText(q));
    if (q.next() && !q.value(0).isNull())
        out.newestHeartbeat = q.value(0).toLongLong();
    q.finish();
    if (!q.exec(QStringLiteral("SELECT name FROM destination_state WHERE circuit_open = 1 ORDER BY name")))
        return Failure(sqlErrorText(q));
    while (q.next())
        out.openCircuits.append(q.value(0).toString());
    return out;
}

ReceiverHealth assessReceivers(
    const ReceiverInstances &instances, qint64 nowMs, qint64 staleAfterMs, qint64 outageRecentMs)
{
    ReceiverHealth h;
    h.openCircuits = instances.openCircuits;
    for (const ReceiverInstance &r : instances.recent) {
        if (r.outageBeganAt && (!r.outageEndedAt || nowMs - *r.outageEndedAt <= outageRecentMs))
            h.recentOutage.append(r);
        if (nowMs - r.heartbeatAt <= staleAfterMs) {
            h.live.append(r);
            if (!r.powerLossDurable)
                h.notDurable.append(r);
        } else {
            h.silent.append(r);
        }
    }
    if (!instances.newestHeartbeat)
        h.neverSeen = true;
    else if (h.live.isEmpty())
        h.silentForMs = std::max<qint64>(0, nowMs - *instances.newestHeartbeat);
    return h;
}

} // namespace redrive
