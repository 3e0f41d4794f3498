// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QList>

namespace redrive {

// An event's status summarises its deliveries, worst first: dead > retrying > in_flight >
// pending > succeeded. An event without deliveries keeps "no_route".
EventStatus summariseEventStatus(const QList<DeliveryStatus> &deliveries);

// Recomputes and stores the event's summary (event_status) from its deliveries. Call inside the transaction
// that changed a delivery's status, so the summary never disagrees with the rows it summarises.
Result<> refreshEventStatus(Db &db, qint64 eventId);

} // namespace redrive
