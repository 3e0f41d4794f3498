// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/ingeststore.h"

namespace redrive::delivery {

// The deliveries of a new event, one per destination in `destinations` (its routes, in config
// order), due at `dueAtMs`: idempotency key and ordering key as every receiver computes them.
// Ingest plans a stored event's deliveries with it, and revalidation one that passed its schema.
void planDeliveries(const Config &config, const QStringList &destinations, const IncomingEvent &event,
    qint64 eventId, qint64 dueAtMs, QList<DeliveryRow> *out);

} // namespace redrive::delivery
