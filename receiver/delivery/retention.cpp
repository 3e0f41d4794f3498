// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "retention.h"

#include <QSqlQuery>

namespace redrive::delivery {

int purgeExpiredEvents(Db &db, qint64 cutoffMs, int batch, QString *error)
{
    Transaction tx(db);
    if (!succeeded(tx.begin(), error))
        return -1;
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral(
        "DELETE FROM events WHERE id IN (SELECT e.id FROM events e WHERE e.received_at < ? AND e.legal_hold = 0 "
        "AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id "
        "AND d.status IN ('pending', 'in_flight', 'retrying')) ORDER BY e.received_at, e.id LIMIT ?)"));
    q.addBindValue(cutoffMs);
    q.addBindValue(batch);
    if (!q.exec()) {
        if (error)
            *error = sqlErrorText(q);
        return -1;
    }
    const int deleted = q.numRowsAffected();
    if (!succeeded(tx.commit(), error))
        return -1;
    return deleted;
}

} // namespace redrive::delivery
