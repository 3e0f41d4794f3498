// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

// Retention: events older than storage.retention_days are deleted, together with their
// deliveries, attempts and notes (ON DELETE CASCADE), unless a delivery is still pending,
// in flight or retrying, or the event is under legal hold. Incidents closed before the same
// cutoff go too, in batches of the same size (purgeClosedIncidents, storage/incidentcheck.h);
// open incidents stay whatever their age, and the audit chain is never purged.
//
// The dedupe key (source, provider_event_id) lives exactly as long as the event row: once an
// event is purged, a provider that re-sends it is recorded as a NEW event and delivered again.
// Retention must therefore exceed every sender's retry window (Stripe retries for 3 days, Svix
// for about 28 hours, GitHub redeliveries for 3 days); the 30-day default leaves a wide margin.
namespace redrive::delivery {

// Deletes at most `batch` purgeable events received before `cutoffMs`, oldest first, in one
// transaction; how many were deleted. Call repeatedly until it returns less than `batch`; bounded
// batches keep each transaction (and its lock) short.
Result<int> purgeExpiredEvents(Db &db, qint64 cutoffMs, int batch);

} // namespace redrive::delivery
