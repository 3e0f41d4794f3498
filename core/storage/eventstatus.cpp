// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventstatus.h"

#include <QSqlQuery>

namespace redrive {

EventStatus summariseEventStatus(const QList<DeliveryStatus> &deliveries)
{
    if (deliveries.isEmpty())
        return EventStatus::NoRoute;
    auto any = [&](DeliveryStatus s) { return deliveries.contains(s); };
    if (any(DeliveryStatus::Dead))
        return EventStatus::Dead;
    if (any(DeliveryStatus::Retrying))
        return EventStatus::Retrying;
    if (any(DeliveryStatus::InFlight))
        return EventStatus::InFlight;
    if (any(DeliveryStatus::Pending))
        return EventStatus::Pending;
    if (any(DeliveryStatus::Resolved))
        return EventStatus::Resolved;
    return EventStatus::Succeeded;
}

Result<> refreshEventStatus(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    if (auto ran
        = runQuery(q, QStringLiteral("SELECT status FROM deliveries WHERE event_id = ?"), { eventId });
        !ran)
        return ran;
    QList<DeliveryStatus> statuses;
    while (q.next()) {
        if (auto s = deliveryStatusFromString(q.value(0).toString()))
            statuses.append(*s);
    }
    q.finish();
    const QString summary = toString(summariseEventStatus(statuses));
    QSqlQuery u(db.handle());
    return runQuery(u,
        QStringLiteral("UPDATE event_status SET status = ? WHERE event_id = ? AND status <> ?"),
        { summary, eventId, summary });
}

} // namespace redrive
