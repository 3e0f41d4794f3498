// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitems.h"

#include "storage/sqlrow.h"

#include <QSqlQuery>

namespace redrive {

Result<QList<ReplayItemRecord>> fetchReplayItems(Db &db, qint64 replayId, qint64 afterDeliveryId, int limit)
{
    return selectRows(db,
        QStringLiteral(
            "SELECT ri.delivery_id, ri.frozen_status, ri.state, d.status, d.event_id, d.destination, "
            "ri.frozen_outcome_unknown, ri.skip_reason, d.outcome_unknown "
            "FROM replay_items ri LEFT JOIN deliveries d ON d.id = ri.delivery_id "
            "WHERE ri.replay_id = ? AND ri.delivery_id > ? ORDER BY ri.delivery_id LIMIT ?"),
        { replayId, afterDeliveryId, limit }, [](const QSqlQuery &q) {
            ReplayItemRecord r;
            // The delivery's columns are NULL when it has been pruned since the replay froze it.
            readColumns(q, r.deliveryId, r.frozenStatus, r.state, r.currentStatus, r.eventId, r.destination,
                r.frozenOutcomeUnknown, r.skipReason, r.outcomeUnknown);
            return r;
        });
}

} // namespace redrive
