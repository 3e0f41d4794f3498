// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitems.h"

#include <QSqlQuery>

namespace redrive {

Result<QList<ReplayItemRecord>> fetchReplayItems(Db &db, qint64 replayId, qint64 afterDeliveryId, int limit)
{
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT ri.delivery_id, ri.frozen_status, ri.state, d.status, d.event_id, d.destination, "
                "ri.frozen_outcome_unknown, ri.skip_reason, d.outcome_unknown "
                "FROM replay_items ri LEFT JOIN deliveries d ON d.id = ri.delivery_id "
                "WHERE ri.replay_id = ? AND ri.delivery_id > ? ORDER BY ri.delivery_id LIMIT ?"),
            { replayId, afterDeliveryId, limit });
        !ran)
        return Failure(ran.error());
    QList<ReplayItemRecord> items;
    while (q.next()) {
        ReplayItemRecord r;
        r.deliveryId = q.value(0).toLongLong();
        r.frozenStatus = Stored<DeliveryStatus>::fromName(q.value(1).toString());
        r.state = Stored<ReplayItemState>::fromName(q.value(2).toString());
        if (!q.value(3).isNull())
            r.currentStatus = Stored<DeliveryStatus>::fromName(q.value(3).toString());
        if (!q.value(4).isNull())
            r.eventId = q.value(4).toLongLong();
        if (!q.value(5).isNull())
            r.destination = q.value(5).toString();
        r.frozenOutcomeUnknown = q.value(6).toInt() != 0;
        if (!q.value(7).isNull())
            r.skipReason = q.value(7).toString();
        if (!q.value(8).isNull())
            r.outcomeUnknown = q.value(8).toInt() != 0;
        items.append(std::move(r));
    }
    return items;
}

} // namespace redrive
