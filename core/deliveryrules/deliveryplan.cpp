// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveryplan.h"

#include "deliveryrules/responsecapture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace redrive::delivery {

void planDeliveries(const Config &config, const QStringList &destinations, const IncomingEvent &event,
    qint64 eventId, qint64 dueAtMs, QList<DeliveryRow> *out)
{
    std::optional<QJsonValue> parsed; // the body, read once for every ordered destination
    bool read = false;
    for (const QString &name : destinations) {
        DeliveryRow row;
        row.eventId = eventId;
        row.dueAtMs = dueAtMs;
        row.delivery.destination = name;
        row.delivery.idempotencyKey = deliveryIdempotencyKey(event.source, event.providerEventId, name);
        const DestinationConfig *destination = config.destination(name);
        if (destination && !destination->orderingKeyPointer.isEmpty()) {
            if (!read) {
                read = true;
                QJsonParseError parseError;
                const QJsonDocument doc = QJsonDocument::fromJson(event.body, &parseError);
                if (parseError.error == QJsonParseError::NoError)
                    parsed = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
            }
            // The one tested rule for what a key is (cut, NUL replaced, empty = none).
            row.delivery.orderingKey = orderingKeyFor(*destination, parsed);
        }
        out->append(std::move(row));
    }
}

} // namespace redrive::delivery
