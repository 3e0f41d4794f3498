// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "retention.h"

#include <QSqlQuery>

namespace redrive::delivery {

Result<int> purgeExpiredEvents(Db &db, qint64 cutoffMs, int batch)
{
    Transaction tx(db);
    if (auto r = tx.begin(); !r)
        return Failure(r.error());
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral(
        "DELETE FROM events WHERE id IN (SELECT e.id FROM events e WHERE e.received_at < ? AND e.legal_hold = 0 "
        "AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id "
        "AND d.status IN %1) ORDER BY e.received_at, e.id LIMIT ?)")
                  .arg(sqlNames(
                      { DeliveryStatus::Pending, DeliveryStatus::InFlight, DeliveryStatus::Retrying })));
    q.addBindValue(cutoffMs);
    q.addBindValue(batch);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    const int deleted = q.numRowsAffected();
    if (auto r = tx.commit(); !r)
        return Failure(r.error());
    return deleted;
}

} // namespace redrive::delivery
